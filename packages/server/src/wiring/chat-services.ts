import type { ProviderLogger } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { AttachmentDownloads } from '../domain/attachments/attachment-download';
import type { AttachmentSigner } from '../domain/attachments/attachment-signer';
import { ChatService } from '../domain/chats/chat-service';
import { ForwardingLogger } from '../domain/inbound/forwarding-logger';
import type { InboundDeps } from '../domain/inbound/inbound-deps';
import { InboundMessageReceiver } from '../domain/inbound/inbound-message-handler';
import { registerInboundHandlers } from '../domain/inbound/register-inbound-handlers';
import { UnroutedInboundKeeper } from '../domain/inbound/unrouted-inbound-keeper';
import { UnroutedInboundService } from '../domain/inbound/unrouted-inbound-service';
import { InboundRenditions } from '../domain/media/inbound-renditions';
import type { MessageEvents } from '../domain/messages/message-events';
import type { OptOutLedger } from '../domain/opt-outs/opt-out-ledger';
import { SandboxService } from '../domain/sandbox/sandbox-service';
import { registerWhatsAppHandlers } from '../domain/whatsapp/whatsapp-connection-handlers';
import { WhatsAppSessionService } from '../domain/whatsapp/whatsapp-session-service';
import type { OutboundUrlPolicy } from '../egress/outbound-url';
import type { EventRecorder } from '../events/event-recorder';
import type { MediaEngine } from '../media/media-engine';
import type { ProviderHub } from '../providers/provider-hub';
import { UnroutedInboundWorker } from '../scheduler/unrouted-inbound-worker';
import type { Store } from '../store/store';
import type { UnroutedInboundRecord } from '../store/unrouted-inbound-repository';
import type { Workers } from '../workers';
import type { GuardedMediaFetch } from './guarded-media-fetch';

/** The chats, inbound, WhatsApp session, attachment and sandbox services. */
export interface ChatServices {
  /** The chat endpoints. */
  chats: ChatService;
  /** The WhatsApp pairing endpoints. */
  whatsappSessions: WhatsAppSessionService;
  /** The sandbox API. */
  sandbox: SandboxService;
  /** Inbound messages from contacts. */
  inboundMessages: InboundMessageReceiver;
  /** Serves the signed download URLs. */
  attachmentDownloads: AttachmentDownloads;
  /** Where the inbound handlers log; attached by {@link startChats}. */
  chatLogger: ForwardingLogger;
  /** Closes the connections of attachment downloads. */
  closeAttachmentFetches: () => Promise<void>;
  /** The inbound items no customer could receive: list, discard, deliver, expire. */
  unroutedInbound: UnroutedInboundService;
  /** Delivers kept items once their address is assigned, and expires them (started by the app). */
  unroutedInboundWorker: UnroutedInboundWorker;
}

/** What {@link createChatServices} builds on. */
export interface ChatDependencies {
  /** The store. */
  store: Store;
  /** Records message events (device-sent messages, contacts' edits and unsends). */
  messageEvents: MessageEvents;
  /** The time source. */
  clock: Clock;
  /** The configuration. */
  config: Config;
  /** The outbox. */
  events: EventRecorder;
  /** The running providers; the inbound and WhatsApp handlers are registered on it. */
  hub: Pick<ProviderHub, 'provider' | 'on'>;
  /** Signs and checks attachment download URLs. */
  attachmentSigner: AttachmentSigner;
  /** The opt-out ledger inbound STOP and START keywords go to. */
  optOuts: OptOutLedger;
  /** The URL-safety policy of customer-given URLs. */
  urlPolicy: OutboundUrlPolicy;
  /** Fetches files by URL through the address guard (inbound media). */
  mediaFetch: GuardedMediaFetch;
  /** The media conversion pool (browser-playable copies of inbound media). */
  mediaEngine: MediaEngine;
  /** Told of each inbound item kept because no customer could receive it (the metrics). */
  onUnroutedKept?: (item: UnroutedInboundRecord) => void;
}

/**
 * Builds the chat side and plugs it into the rest: the inbound and WhatsApp session handlers are
 * registered on the provider hub (before it starts).
 */
export function createChatServices(deps: ChatDependencies): ChatServices {
  const { store, clock, config, events, hub, attachmentSigner } = deps;
  const logger = new ForwardingLogger();
  const unrouted = new UnroutedInboundKeeper({
    store,
    clock,
    logger,
    ...(deps.onUnroutedKept ? { onKept: deps.onUnroutedKept } : {}),
  });
  const inboundMessages = new InboundMessageReceiver({
    unrouted,
    store,
    events,
    clock,
    hub,
    logger,
    lifecycle: deps.messageEvents,
    optOuts: deps.optOuts,
    attachments: {
      signer: attachmentSigner,
      maxBytes: config.inboundAttachmentMaxBytes,
      fetch: (url, headers) => deps.mediaFetch.fetch(url, headers),
      ...(config.inboundMediaRenditions
        ? {
            renditions: new InboundRenditions(
              deps.mediaEngine,
              config.inboundAttachmentMaxBytes,
              (error, mimeType) =>
                logger.warn({ err: error, mimeType }, 'inbound media rendition failed'),
            ),
          }
        : {}),
    },
  });
  const inboundDeps: InboundDeps = { store, events, clock, logger, unrouted };
  const unroutedInbound = new UnroutedInboundService({
    store,
    clock,
    logger,
    retentionMs: config.unroutedInboundRetentionMs,
  });
  unroutedInbound.useReplay(
    registerInboundHandlers(
      hub,
      { ...inboundDeps, lifecycle: deps.messageEvents },
      inboundMessages,
    ),
  );
  registerWhatsAppHandlers(hub, inboundDeps);
  return {
    chats: new ChatService({
      store,
      hub,
      events,
      clock,
      onPersistFailure: (error, chatId) =>
        logger.error({ err: error, chatId }, 'group created but its conversation was not stored'),
    }),
    whatsappSessions: new WhatsAppSessionService({ store, hub, events, clock, logger }),
    sandbox: new SandboxService({
      store,
      hub,
      inbound: inboundMessages,
      clock,
      urlPolicy: deps.urlPolicy,
    }),
    inboundMessages,
    attachmentDownloads: new AttachmentDownloads(
      attachmentSigner,
      store.storedAttachments,
      store.messages,
      store.mediaRenditions,
    ),
    chatLogger: logger,
    closeAttachmentFetches: () => deps.mediaFetch.close(),
    unroutedInbound,
    unroutedInboundWorker: new UnroutedInboundWorker(
      unroutedInbound,
      config.unroutedInboundIntervalMs,
    ),
  };
}

/**
 * Starts the chat side once the providers run: attaches the logger, reconnects the WhatsApp
 * sessions stored as connected and starts delivering kept inbound items. Registers a worker that
 * closes attachment downloads at shutdown.
 */
export async function startChats(
  services: ChatServices,
  workers: Workers,
  logger: ProviderLogger,
): Promise<void> {
  services.chatLogger.attach(logger);
  workers.add({ name: 'attachment-fetches', stop: services.closeAttachmentFetches });
  workers.add(services.unroutedInboundWorker);
  services.unroutedInboundWorker.start(logger);
  await services.whatsappSessions.resumeAfterStart();
}
