import type { ProviderRegistry } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import type { Config } from '../config';
import {
  OUTBOUND_MEDIA_URL_TTL_SECONDS,
  outboundMediaId,
  renditionDownloadId,
} from '../domain/attachments/attachment-download';
import type { AttachmentSigner } from '../domain/attachments/attachment-signer';
import { AvailabilityCache } from '../domain/capabilities/availability-cache';
import { CapabilityService } from '../domain/capabilities/capability-service';
import { ConversationSendResolver } from '../domain/chats/chat-send-resolver';
import { ForwardingLogger } from '../domain/inbound/forwarding-logger';
import { MediaLimitCheck } from '../domain/media/media-limit-check';
import { OutboundMedia } from '../domain/media/outbound-media';
import { MessageActions } from '../domain/messages/message-actions';
import { MessageDelivery } from '../domain/messages/message-delivery';
import { MessageEvents } from '../domain/messages/message-events';
import { MessageService } from '../domain/messages/message-service';
import { SendTargetResolver } from '../domain/messages/send-target';
import { MessageStatusUpdates } from '../domain/messages/status-updates';
import type { OptOutLedger } from '../domain/opt-outs/opt-out-ledger';
import { routedChannels } from '../domain/routing/channel-routes';
import { NumberRestrictions } from '../domain/send-policy/number-restrictions';
import { SendAllowance } from '../domain/send-policy/send-allowance';
import { SendDay } from '../domain/send-policy/send-day';
import { SendPolicyService } from '../domain/send-policy/send-policy-service';
import type { OutboundUrlPolicy } from '../egress/outbound-url';
import type { EventRecorder } from '../events/event-recorder';
import type { MediaEngine } from '../media/media-engine';
import { channelMediaLimits } from '../media/media-limits';
import { type RuntimeLogger, RuntimeProviderHub } from '../provider-runtime/runtime-provider-hub';
import type { RedisConnection } from '../redis/redis-connection';
import { MessageDispatcher } from '../scheduler/message-dispatcher';
import { MessageScheduler } from '../scheduler/message-scheduler';
import { SendHandOff } from '../scheduler/send-hand-off';
import type { Store } from '../store/store';
import type { Workers } from '../workers';
import { openClusterChannel } from './cluster-channels';
import { createDefaultProviderRegistry } from './default-provider-registry';
import type { GuardedMediaFetch } from './guarded-media-fetch';
import { createSendPacer } from './send-pacer';

/** The messaging part of the services: providers, messages, capabilities and their workers. */
export interface MessagingServices {
  /** The running providers and the one sink of their events. */
  providers: RuntimeProviderHub;
  /** Send, list, get, retry, delete, the scheduled list and cancel. */
  messages: MessageService;
  /** Unsend, edit and reactions. */
  messageActions: MessageActions;
  /** Capability checks. */
  capabilities: CapabilityService;
  /** The worker that hands queued messages to providers. */
  messageDispatcher: MessageDispatcher;
  /** The worker that queues scheduled messages when they fall due. */
  messageScheduler: MessageScheduler;
  /** Records message events (the inbound side records device-sent messages and changes). */
  messageEvents: MessageEvents;
  /** The send policies' allowance: today's effective policy and counts of a number. */
  sendAllowance: SendAllowance;
  /** The send policies of numbers and instances, set by the operator, read by customers. */
  sendPolicies: SendPolicyService;
  /** Hands sends to the process holding their sender's connection (several processes only). */
  sendHandOff?: SendHandOff;
  /** Where delivery reports what it could not record (attached to the app's logger at start). */
  deliveryLog: ForwardingLogger;
}

/** What {@link createMessagingServices} builds on. */
export interface MessagingDependencies {
  /** The store. */
  store: Store;
  /** The time source. */
  clock: Clock;
  /** The configuration (simulator step, scheduler and health intervals, capability TTL). */
  config: Config;
  /** The outbox every message event goes through. */
  events: EventRecorder;
  /** The adapters (default: the built-in ones); tests wrap them to observe provider calls. */
  providerRegistry?: ProviderRegistry;
  /** Signs the public URLs of outbound attachment bytes. */
  attachmentSigner: AttachmentSigner;
  /** The opt-out ledger sends are checked against. */
  optOuts: OptOutLedger;
  /** The URL-safety policy of customer-given URLs. */
  urlPolicy: OutboundUrlPolicy;
  /** Fetches customers' media URLs through the address guard, for adapters that upload files. */
  mediaFetch: GuardedMediaFetch;
  /** The media conversion pool. */
  mediaEngine: MediaEngine;
  /** The deployment's Redis, when configured (the cluster-wide pace of numbers). */
  redis?: RedisConnection;
}

/** The runtime hub of the deployment's instances, over the registry `deps` name or the default one. */
function createProviderHub(deps: MessagingDependencies): RuntimeProviderHub {
  const { store, clock, config } = deps;
  return new RuntimeProviderHub({
    store,
    clock,
    registry:
      deps.providerRegistry ??
      createDefaultProviderRegistry({
        simulatorStepMs: config.simulatorStepMs,
        clock,
        httpTimeoutMs: config.providerHttpTimeoutMs,
        bluebubbles: {
          maxAttachmentBytes: config.inboundAttachmentMaxBytes,
          fetchMedia: (url) => deps.mediaFetch.fetch(url),
        },
      }),
    healthIntervalMs: config.instanceHealthIntervalMs,
    publicBaseUrl: config.publicBaseUrl,
    dedupeRetentionMs: config.ingressDedupeRetentionMs,
  });
}

/** What message delivery is built over, besides `deps`. */
interface DeliveryParts {
  providers: RuntimeProviderHub;
  availability: AvailabilityCache;
  events: MessageEvents;
  statusUpdates: MessageStatusUpdates;
  /** Hands a message to the process holding its sender's connection, once one is known. */
  handOff: (messageId: string) => void;
  /** Where delivery reports what it could not record. */
  log: ForwardingLogger;
  /** The send policies' allowance. */
  allowance: SendAllowance;
}

/** Message delivery: pacing, the attempts, outbound media and the signed URLs of files. */
function createDelivery(deps: MessagingDependencies, parts: DeliveryParts): MessageDelivery {
  const { store, clock, config } = deps;
  return new MessageDelivery({
    store,
    providers: parts.providers,
    availability: parts.availability,
    events: parts.events,
    statusUpdates: parts.statusUpdates,
    clock,
    pacingOf: (instanceId) => parts.providers.pacing(instanceId),
    pacer: createSendPacer(store, deps.redis, config.redisKeyPrefix),
    retryWindowMs: config.providerRetryWindowMs,
    retryBaseMs: config.providerRetryBaseMs,
    optOuts: deps.optOuts,
    urlPolicy: deps.urlPolicy,
    mediaUrlOf: (messageId, position) =>
      deps.attachmentSigner.urlFor(
        outboundMediaId(messageId, position),
        OUTBOUND_MEDIA_URL_TTL_SECONDS,
      ),
    media: new OutboundMedia({
      store,
      clock,
      engine: deps.mediaEngine,
      fetch: (url, maxBytes) => deps.mediaFetch.fetch(url, {}, maxBytes),
      limitsOf: async (instanceId) =>
        channelMediaLimits((await store.instances.findById(instanceId))?.config.mediaLimits),
    }),
    renditionUrlOf: (renditionId) =>
      deps.attachmentSigner.urlFor(
        renditionDownloadId(renditionId),
        OUTBOUND_MEDIA_URL_TTL_SECONDS,
      ),
    handOff: parts.handOff,
    slotNotTaken: (error, messageId) =>
      parts.log.warn(
        { err: error, messageId },
        'pace slot not taken at acceptance: the message takes one when sent, and may leave after sends accepted later',
      ),
    traceLost: (error, steps) =>
      parts.log.warn(
        { err: error, messageId: steps[0]?.messageId, steps: steps.length },
        'routing steps not recorded; the message goes on',
      ),
    sendPolicy: {
      allowance: parts.allowance,
      holdWindowMs: config.sendPolicyHoldWindowMs,
      recheckMs: config.sendPolicyRecheckMs,
    },
  });
}

/** Builds the messaging services; nothing runs until {@link startMessaging}. */
export function createMessagingServices(deps: MessagingDependencies): MessagingServices {
  const { store, clock, config } = deps;
  const providers = createProviderHub(deps);
  const availability = new AvailabilityCache(store, providers, clock, config.capabilityCacheTtlMs);
  const chats = new ConversationSendResolver(store);
  const events = new MessageEvents(deps.events, chats);
  const restrictions = new NumberRestrictions();
  const statusUpdates = new MessageStatusUpdates(
    store,
    events,
    clock,
    async (tx, message, error) => {
      await deps.optOuts.recordRefusal(tx, message);
      await restrictions.recordFailure(tx, message, error, clock.now());
    },
  );
  const sendDay = new SendDay(config.sendPolicyTimeZone);
  const allowance = new SendAllowance({ store, clock, day: sendDay });
  let sendHandOff: SendHandOff | undefined;
  const deliveryLog = new ForwardingLogger();
  const delivery = createDelivery(deps, {
    log: deliveryLog,
    providers,
    availability,
    events,
    statusUpdates,
    handOff: (messageId) => sendHandOff?.handOff(messageId),
    allowance,
  });
  const messageDispatcher = new MessageDispatcher({
    store,
    delivery,
    clock,
    reconcileSentWithinMs: config.reconcileSentWindowMs,
    reconcileDeliveredWithinMs: config.reconcileDeliveredWindowMs,
    // Other processes may share a PostgreSQL database: their `pending` sends are theirs.
    ...(store.kind === 'postgres' ? { takeoverAfterMs: config.messageTakeoverAfterMs } : {}),
  });
  const channel = openClusterChannel(store, deps.redis, config.redisKeyPrefix, 'hand-off');
  if (channel) sendHandOff = new SendHandOff(channel, (id) => messageDispatcher.enqueue(id));
  const messages = new MessageService({
    store,
    clock,
    targets: new SendTargetResolver(
      store,
      availability,
      chats,
      config.reachabilityBudgetMs,
      deps.optOuts,
    ),
    events,
    onQueued: (id) => messageDispatcher.enqueue(id),
    acceptPace: (message) => delivery.acceptPace(message),
    urlPolicy: deps.urlPolicy,
    mediaLimits: new MediaLimitCheck(store, (message) => routedChannels(store, message)),
  });
  providers.on('message.status', statusUpdates.handle);
  return {
    providers,
    messages,
    messageActions: new MessageActions({ store, providers, events, clock }),
    capabilities: new CapabilityService(store, availability, clock),
    messageDispatcher,
    messageScheduler: new MessageScheduler(messages, config.schedulerIntervalMs),
    messageEvents: events,
    sendAllowance: allowance,
    sendPolicies: new SendPolicyService({ store, clock, day: sendDay, allowance }),
    ...(sendHandOff ? { sendHandOff } : {}),
    deliveryLog,
  };
}

/**
 * Starts the providers, the dispatcher and the scheduler, registering each with `workers` so that
 * shutdown stops them in reverse order (scheduler, dispatcher, then the providers) before the
 * database closes.
 */
export async function startMessaging(
  services: MessagingServices,
  workers: Workers,
  logger: RuntimeLogger,
): Promise<void> {
  services.deliveryLog.attach(logger);
  workers.add(services.providers);
  await services.providers.start(logger);
  workers.add(services.messageDispatcher);
  services.messageDispatcher.start(logger);
  if (services.sendHandOff) {
    workers.add(services.sendHandOff);
    await services.sendHandOff.start();
  }
  workers.add(services.messageScheduler);
  services.messageScheduler.start(logger);
}
