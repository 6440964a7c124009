import type { ProviderRegistry } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { ApiKeyService } from '../domain/api-keys/api-key-service';
import { AttachmentSigner } from '../domain/attachments/attachment-signer';
import { CallbackService } from '../domain/callbacks/callback-service';
import { CustomerService } from '../domain/customers/customer-service';
import { HealthService } from '../domain/health/health-service';
import { IngressService } from '../domain/ingress/ingress-service';
import { InstanceService } from '../domain/instances/instance-service';
import { MessageViews } from '../domain/messages/message-view';
import { NumberService } from '../domain/numbers/number-service';
import { OptOutLedger } from '../domain/opt-outs/opt-out-ledger';
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
import { type ChatServices, createChatServices } from './chat-services';
import { createGuardedMediaFetch } from './guarded-media-fetch';
import { createMessagingServices, type MessagingServices } from './messaging-services';

/** The domain services the HTTP routes and the CLI call. */
export interface Services {
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
  /** The running providers and the one sink of their events (started by the app). */
  providers: MessagingServices['providers'];
  /** Send, list, get, retry, delete, the scheduled list and cancel of messages. */
  messages: MessagingServices['messages'];
  /** Unsend, edit and reactions. */
  messageActions: MessagingServices['messageActions'];
  /** Shows stored messages as the API's `Message` (download URLs signed at each read). */
  messageViews: MessageViews;
  /** Capability checks. */
  capabilities: MessagingServices['capabilities'];
  /** The worker that hands queued messages to providers (started by the app). */
  messageDispatcher: MessagingServices['messageDispatcher'];
  /** The worker that queues scheduled messages when due (started by the app). */
  messageScheduler: MessagingServices['messageScheduler'];
  /** Records message events. */
  messageEvents: MessagingServices['messageEvents'];
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
  /** The opt-out ledger (STOP/START) sends are checked against. */
  optOuts: OptOutLedger;
  /** Per-message callback deliveries: their signing secret and log. */
  callbacks: CallbackService;
  /** The media conversion pool (FFmpeg), shared by outbound and inbound media. */
  mediaEngine: MediaEngine;
  /** The Prometheus metrics of `GET /metrics`. */
  metrics: GatewayMetrics;
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

/** Creates every service over one store, clock and configuration. */
export function createServices(
  store: Store,
  clock: Clock,
  config: Config,
  overrides: ServiceOverrides = {},
): Services {
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
  const metrics = new GatewayMetrics({ store, streams: eventStreams });
  events.onCommitted((event) => metrics.event(event));
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
    pollIntervalMs: config.webhookPollIntervalMs,
    ...(overrides.webhookResolver ? { resolver: overrides.webhookResolver } : {}),
  });
  events.onDeliveriesQueued((deliveries) => webhookDispatcher.offer(deliveries));
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
  const mediaEngine = new MediaEngine({
    ffmpegPath: config.ffmpegPath,
    ffprobePath: config.ffprobePath,
    concurrency: config.mediaTranscodeConcurrency,
    timeoutMs: config.mediaTranscodeTimeoutMs,
  });
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
  });
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
    ...messaging,
    messageViews: new MessageViews(attachmentSigner),
    attachmentSigner,
    ...createChatServices({
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
    }),
    optOuts,
    callbacks,
    mediaEngine,
    metrics,
  };
}
