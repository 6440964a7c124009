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
import { MediaLimitCheck } from '../domain/media/media-limit-check';
import { OutboundMedia } from '../domain/media/outbound-media';
import { InstancePacer } from '../domain/messages/instance-pacer';
import { MessageActions } from '../domain/messages/message-actions';
import { MessageDelivery } from '../domain/messages/message-delivery';
import { MessageEvents } from '../domain/messages/message-events';
import { MessageService } from '../domain/messages/message-service';
import { SendTargetResolver } from '../domain/messages/send-target';
import { MessageStatusUpdates } from '../domain/messages/status-updates';
import type { OptOutLedger } from '../domain/opt-outs/opt-out-ledger';
import type { OutboundUrlPolicy } from '../egress/outbound-url';
import type { EventRecorder } from '../events/event-recorder';
import type { MediaEngine } from '../media/media-engine';
import { channelMediaLimits } from '../media/media-limits';
import { type RuntimeLogger, RuntimeProviderHub } from '../provider-runtime/runtime-provider-hub';
import { MessageDispatcher } from '../scheduler/message-dispatcher';
import { MessageScheduler } from '../scheduler/message-scheduler';
import type { Store } from '../store/store';
import type { Workers } from '../workers';
import { createDefaultProviderRegistry } from './default-provider-registry';
import type { GuardedMediaFetch } from './guarded-media-fetch';

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
}

/** Builds the messaging services; nothing runs until {@link startMessaging}. */
export function createMessagingServices(deps: MessagingDependencies): MessagingServices {
  const { store, clock, config } = deps;
  const providers = new RuntimeProviderHub({
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
  const availability = new AvailabilityCache(store, providers, clock, config.capabilityCacheTtlMs);
  const chats = new ConversationSendResolver(store);
  const events = new MessageEvents(deps.events, chats);
  const statusUpdates = new MessageStatusUpdates(store, events, clock, (tx, message) =>
    deps.optOuts.recordRefusal(tx, message),
  );
  const delivery = new MessageDelivery({
    store,
    providers,
    availability,
    events,
    statusUpdates,
    clock,
    pacingOf: (instanceId) => providers.pacing(instanceId),
    pacer: new InstancePacer(),
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
    urlPolicy: deps.urlPolicy,
    mediaLimits: new MediaLimitCheck(store),
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
  workers.add(services.providers);
  await services.providers.start(logger);
  workers.add(services.messageDispatcher);
  services.messageDispatcher.start(logger);
  workers.add(services.messageScheduler);
  services.messageScheduler.start(logger);
}
