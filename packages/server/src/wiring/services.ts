import type { ProviderRegistry } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { ApiKeyService } from '../domain/api-keys/api-key-service';
import { AttachmentSigner } from '../domain/attachments/attachment-signer';
import { CallbackService } from '../domain/callbacks/callback-service';
import { CustomerService } from '../domain/customers/customer-service';
import { DeliveryWatchdog } from '../domain/delivery-watchdog/delivery-watchdog';
import { HealthService } from '../domain/health/health-service';
import { IngressService } from '../domain/ingress/ingress-service';
import { InstanceService } from '../domain/instances/instance-service';
import { MessageEventLog } from '../domain/messages/message-event-log';
import { MessageViews } from '../domain/messages/message-view';
import { NumberService } from '../domain/numbers/number-service';
import { OptOutLedger } from '../domain/opt-outs/opt-out-ledger';
import { restrictionWarnings } from '../domain/send-policy/restriction-warnings';
import { OperatorStatsService } from '../domain/stats/operator-stats-service';
import { WebhookService } from '../domain/webhooks/webhook-service';
import { OutboundUrlPolicy } from '../egress/outbound-url';
import type { HostResolver } from '../egress/safe-dispatcher';
import { InProcessEventBus } from '../events/event-bus';
import { EventService } from '../events/event-service';
import { EventStreamHub } from '../events/event-stream-hub';
import { StreamReplay } from '../events/stream-replay';
import { MediaEngine } from '../media/media-engine';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import type { RedisConnection } from '../redis/redis-connection';
import { RedisEventBus } from '../redis/redis-event-bus';
import type { Store } from '../store/store';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { WebhookWakeUp } from '../webhooks/webhook-wake-up';
import { type ChatServices, createChatServices } from './chat-services';
import { openClusterChannel } from './cluster-channels';
import { createDataLifecycleServices, type DataLifecycleServices } from './data-lifecycle-services';
import { createGuardedMediaFetch } from './guarded-media-fetch';
import { createMessagingServices, type MessagingServices } from './messaging-services';

/** The domain services the HTTP routes and the CLI call. */
export interface Services extends DataLifecycleServices {
  /** Customer accounts. */
  customers: CustomerService;
  /** API keys and authentication. */
  apiKeys: ApiKeyService;
  /** Provider instances. */
  instances: InstanceService;
  /** The upstream ingress. */
  ingress: IngressService;
  /** Sender numbers. */
  numbers: NumberService;
  /** The health report. */
  health: HealthService;
  /** The event pipeline: `events.record(tx, event)` is the `EventRecorder` every producer uses. */
  events: EventService;
  /** The live event streams of `GET /v1/events`. */
  eventStreams: EventStreamHub;
  /** What a stream reconnecting with `Last-Event-ID` gets first. */
  streamReplay: StreamReplay;
  /** Webhook registrations and their delivery log. */
  webhooks: WebhookService;
  /** The durable webhook delivery worker (started by the app, never by the CLI). */
  webhookDispatcher: WebhookDispatcher;
  /** Wakes the other processes' dispatchers (processes sharing a PostgreSQL database only). */
  webhookWakeUp?: WebhookWakeUp;
  /** The running providers and the one sink of their events (started by the app). */
  providers: MessagingServices['providers'];
  /** Send, list, get, retry, delete, the scheduled list and cancel of messages. */
  messages: MessagingServices['messages'];
  /** Unsend, edit and reactions. */
  messageActions: MessagingServices['messageActions'];
  /** Shows stored messages as the API's `Message` (download URLs signed at each read). */
  messageViews: MessageViews;
  /** The events a message emitted, with their delivery attempts. */
  messageEventLog: MessageEventLog;
  /** Capability checks. */
  capabilities: MessagingServices['capabilities'];
  /** The worker that hands queued messages to providers (started by the app). */
  messageDispatcher: MessagingServices['messageDispatcher'];
  /** The worker that queues scheduled messages when due (started by the app). */
  messageScheduler: MessagingServices['messageScheduler'];
  /** Records message events. */
  messageEvents: MessagingServices['messageEvents'];
  /** Where delivery reports what it could not record (attached to the app's logger at start). */
  deliveryLog: MessagingServices['deliveryLog'];
  /** The send policies' allowance: today's effective policy and counts of a number. */
  sendAllowance: MessagingServices['sendAllowance'];
  /** The send policies of numbers and instances. */
  sendPolicies: MessagingServices['sendPolicies'];
  /** The chat endpoints. */
  chats: ChatServices['chats'];
  /** The WhatsApp pairing endpoints. */
  whatsappSessions: ChatServices['whatsappSessions'];
  /** The sandbox API of the simulator. */
  sandbox: ChatServices['sandbox'];
  /** Inbound messages from contacts. */
  inboundMessages: ChatServices['inboundMessages'];
  /** Signs and checks attachment download URLs. */
  attachmentSigner: AttachmentSigner;
  /** Serves the signed attachment download URLs. */
  attachmentDownloads: ChatServices['attachmentDownloads'];
  /** Where the inbound handlers log (attached by `startChats`). */
  chatLogger: ChatServices['chatLogger'];
  /** Closes attachment downloads at shutdown. */
  closeAttachmentFetches: ChatServices['closeAttachmentFetches'];
  /** Inbound items no customer could receive: list, discard, deliver, expire. */
  unroutedInbound: ChatServices['unroutedInbound'];
  /** Delivers kept inbound items once their address is assigned (started by the app). */
  unroutedInboundWorker: ChatServices['unroutedInboundWorker'];
  /** The opt-out ledger (STOP/START) sends are checked against. */
  optOuts: OptOutLedger;
  /** Per-message callback deliveries: their signing secret and log. */
  callbacks: CallbackService;
  /** The media conversion pool (FFmpeg), shared by outbound and inbound media. */
  mediaEngine: MediaEngine;
  /** The Prometheus metrics of `GET /metrics`. */
  metrics: GatewayMetrics;
  /** The operator's traffic stats of `GET /admin/v1/stats`. */
  stats: OperatorStatsService;
}

/** Replacements for what {@link createServices} would otherwise create, for tests. */
export interface ServiceOverrides {
  /** DNS resolver of the URL-safety checks (webhook connect time, media URLs at delivery). */
  webhookResolver?: HostResolver;
  /** The provider adapters (default: the built-in ones). */
  providerRegistry?: ProviderRegistry;
  /** The deployment's Redis (`REDIS_URL`): the event bus goes through it, and health checks it. */
  redis?: RedisConnection;
}

/** The event log's services: the bus, callbacks, the event streams, metrics and webhook delivery. */
function createEventServices(
  store: Store,
  clock: Clock,
  config: Config,
  overrides: ServiceOverrides,
) {
  const bus = overrides.redis
    ? new RedisEventBus(overrides.redis, config.redisKeyPrefix, overrides.redis.logger, {
        events: store.events,
        clock,
      })
    : new InProcessEventBus();
  const events = new EventService(clock, bus);
  const callbacks = new CallbackService(store, clock);
  const eventStreams = new EventStreamHub(events.bus, {
    heartbeatMs: config.sseHeartbeatMs,
    maxBufferBytes: config.sseMaxBufferBytes,
  });
  const deliveryWatchdog = new DeliveryWatchdog(store, clock);
  const metrics = new GatewayMetrics({
    store,
    streams: eventStreams,
    deliveries: deliveryWatchdog,
  });
  events.onCommitted((event) => metrics.event(event));
  const channel = openClusterChannel(store, overrides.redis, config.redisKeyPrefix, 'webhooks');
  const webhookDispatcher = new WebhookDispatcher({
    onAttempt: (attempt) => metrics.delivery(attempt),
    callbackSigningKey: (customerId) => callbacks.signingKey(customerId),
    store,
    clock,
    retrySchedule: config.webhookRetryScheduleMs,
    timeoutMs: config.webhookTimeoutMs,
    allowPrivate: config.webhookAllowPrivateUrls,
    concurrency: config.webhookConcurrency,
    senderThread: config.webhookSenderThread,
    // Unset: processes that wake each other poll rarely, for what no note reached them about.
    pollIntervalMs: config.webhookPollIntervalMs ?? (channel ? 30_000 : 1_000),
    ...(overrides.webhookResolver ? { resolver: overrides.webhookResolver } : {}),
  });
  const webhookWakeUp = channel
    ? new WebhookWakeUp(channel, () => webhookDispatcher.wake())
    : undefined;
  events.onDeliveriesQueued((deliveries) => {
    if (!webhookDispatcher.offer(deliveries)) webhookWakeUp?.announce();
  });
  return {
    events,
    callbacks,
    eventStreams,
    metrics,
    webhookDispatcher,
    deliveryWatchdog,
    ...(webhookWakeUp ? { webhookWakeUp } : {}),
  };
}

/** The FFmpeg runner of media conversion, as configured. */
function createMediaEngine(config: Config): MediaEngine {
  return new MediaEngine({
    ffmpegPath: config.ffmpegPath,
    ffprobePath: config.ffprobePath,
    concurrency: config.mediaTranscodeConcurrency,
    timeoutMs: config.mediaTranscodeTimeoutMs,
  });
}

/**
 * Adds to an instance's health what the gateway knows of it beyond its provider: inbound kept for
 * want of a number, deliveries stalling (the watchdog), WhatsApp's restriction of a number.
 */
function addWarningSources(
  providers: MessagingServices['providers'],
  sources: readonly Parameters<MessagingServices['providers']['addWarningSource']>[0][],
): void {
  for (const source of sources) providers.addWarningSource(source);
}

/** Creates every service over one store, clock and configuration. */
export function createServices(
  store: Store,
  clock: Clock,
  config: Config,
  overrides: ServiceOverrides = {},
): Services {
  const {
    events,
    callbacks,
    eventStreams,
    metrics,
    webhookDispatcher,
    deliveryWatchdog,
    webhookWakeUp,
  } = createEventServices(store, clock, config, overrides);
  const attachmentSigner = new AttachmentSigner(
    { configured: config.attachmentSigningSecret, secrets: store.serverSecrets },
    config.publicBaseUrl,
    clock,
  );
  const optOuts = new OptOutLedger(store, events, clock);
  const urlPolicy = new OutboundUrlPolicy({
    allowPrivate: config.webhookAllowPrivateUrls,
    ...(overrides.webhookResolver ? { resolver: overrides.webhookResolver } : {}),
  });
  const mediaFetch = createGuardedMediaFetch(config);
  const mediaEngine = createMediaEngine(config);
  const messaging = createMessagingServices({
    mediaEngine,
    urlPolicy,
    mediaFetch,
    store,
    clock,
    config,
    events,
    attachmentSigner,
    optOuts,
    ...(overrides.providerRegistry ? { providerRegistry: overrides.providerRegistry } : {}),
    ...(overrides.redis ? { redis: overrides.redis } : {}),
  });
  const chatServices = createChatServices({
    store,
    clock,
    config,
    events,
    hub: messaging.providers,
    attachmentSigner,
    messageEvents: messaging.messageEvents,
    optOuts,
    urlPolicy,
    mediaFetch,
    mediaEngine,
    onUnroutedKept: (item) => metrics.unrouted(item.kind),
  });
  addWarningSources(messaging.providers, [
    (instanceId) => chatServices.unroutedInbound.warningsOf(instanceId),
    (instanceId) => deliveryWatchdog.warningsOf(instanceId),
    (instanceId) => restrictionWarnings(store, clock, instanceId),
  ]);
  return {
    customers: new CustomerService(store, clock),
    apiKeys: new ApiKeyService(store, clock),
    instances: new InstanceService({
      store,
      clock,
      lifecycle: messaging.providers,
    }),
    ingress: new IngressService(store, messaging.providers),
    numbers: new NumberService(store, clock),
    health: new HealthService(store, clock, {
      media: mediaEngine,
      ...(overrides.redis ? { redis: () => (overrides.redis as RedisConnection).ping() } : {}),
    }),
    events,
    eventStreams,
    streamReplay: new StreamReplay(store.events, clock, config.sseReplayWindowMs),
    webhooks: new WebhookService(store, clock, events, webhookDispatcher, {
      allowPrivateUrls: config.webhookAllowPrivateUrls,
      // Longer than any attempt, so the dispatcher never races the synchronous test.
      testHoldMs: config.webhookTimeoutMs + 60_000,
    }),
    webhookDispatcher,
    ...(webhookWakeUp ? { webhookWakeUp } : {}),
    ...messaging,
    messageViews: new MessageViews(attachmentSigner),
    messageEventLog: new MessageEventLog(store),
    attachmentSigner,
    ...chatServices,
    optOuts,
    callbacks,
    mediaEngine,
    metrics,
    stats: new OperatorStatsService(store, clock),
    ...createDataLifecycleServices(store, clock, config),
  };
}
