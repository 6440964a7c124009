import type { Agent } from 'node:https';
import type {
  OrderedEventDelivery,
  ProviderInboundEvent,
  ProviderLeases,
  ProviderLogger,
  ProviderStateStore,
  ProviderWhatsAppConnectionEvent,
  TimerClock,
  WhatsAppDisconnectReason,
  WhatsAppSessionSnapshot,
} from '@switchboard/provider-kit';
import { ProviderError } from '@switchboard/provider-kit';
import {
  type BaileysEventMap,
  makeCacheableSignalKeyStore,
  type WABrowserDescription,
  type WAMessage,
  type WAVersion,
} from 'baileys';
import {
  eventsOfGroupUpdates,
  eventsOfMessage,
  eventsOfParticipants,
  eventsOfPresence,
  eventsOfReceipt,
  eventsOfUpdate,
  type JidNamer,
  jidNamer,
} from './baileys-inbound';
import { baileysLogger } from './baileys-logger';
import type { BaileysMediaDownloader, BaileysSocket, BaileysSocketFactory } from './baileys-socket';
import { closeStatusCode, decideOnClose } from './disconnect-reasons';
import { GroupMetadataCache } from './group-metadata-cache';
import { normalizedJid } from './jids';
import { MessageMemory } from './message-memory';
import type { BaileysProxySettings } from './proxy-agent';
import { type SubscribeToSocket, socketSubscriptions } from './socket-subscriptions';
import { loadStoredAuthState, type StoredAuthState, wipeAuthState } from './stored-auth-state';

/**
 * Message ids of this process's sends whose attempt a receipt can still be matched to: far more
 * than are sent in the seconds before the gateway records a send's id, which is all it is for.
 */
const SENT_ATTEMPTS_KEPT = 10_000;

/** The settings every session of an instance shares. */
export interface SessionSettings {
  /** Opens sockets: Baileys' `makeWASocket`, or a fake. */
  socketFactory: BaileysSocketFactory;
  /** Fetches received media. */
  download: BaileysMediaDownloader;
  /** The WhatsApp Web version announced. */
  version: WAVersion;
  /** The linked-device name shown on the phone. */
  browser: WABrowserDescription;
  /** Appear online when connected. */
  markOnlineOnConnect: boolean;
  /** The proxy the sockets go out through, and its agent; none: straight out. */
  proxy?: { settings: BaileysProxySettings; agent: Agent } | undefined;
  /** Where the sockets connect (tests point it at a local endpoint); Baileys' default when unset. */
  waWebSocketUrl?: string | undefined;
  /** QR codes shown for one pairing before giving up (`qr_timeout`). */
  maxQrCodes: number;
  /** Waits before the first, second… reconnect after a lost connection (the last repeats). */
  reconnectDelaysMs: readonly number[];
  /** Timers and the time. */
  clock: TimerClock;
  /**
   * How long the lease on a number's socket lasts unless renewed (renewed every third of it): a
   * process that dies holding it frees the number after at most this long.
   */
  leaseTtlMs: number;
  /** How often a session waiting for another process's lease asks again. */
  leaseRetryMs: number;
}

/** What a session needs from its provider instance. */
export interface SessionContext {
  /** The instance's durable state (credentials, keys, remembered messages). */
  state: ProviderStateStore;
  /** The deployment's leases: one socket per number across processes. */
  leases: ProviderLeases;
  /** Delivers events to the gateway in order. */
  delivery: OrderedEventDelivery;
  /** The instance's logger. */
  logger: ProviderLogger;
}

type LiveStatus = 'connecting' | 'qr_pending' | 'connected' | 'disconnected';

/**
 * The WhatsApp session of one owned number: one Baileys socket at a time, its auth state in the
 * instance's encrypted state store, and every transition reported as `whatsapp.connection`.
 * Pairing shows rotating QR codes (or a pairing code) until scanned or `maxQrCodes` ran out;
 * the restart WhatsApp asks for after pairing (515) happens silently; every other close is
 * mapped by {@link decideOnClose}.
 */
export class WhatsAppSocketSession {
  readonly phoneNumber: string;
  /** Messages kept for quotes and retry requests. */
  readonly memory: MessageMemory;
  /** The groups' metadata, for Baileys' `cachedGroupMetadata`. */
  readonly groups: GroupMetadataCache;
  #status: LiveStatus = 'disconnected';
  #qrCode: string | undefined;
  #pairingCode: string | undefined;
  #jid: string | undefined;
  #reason: WhatsAppDisconnectReason | undefined;
  #socket: BaileysSocket | undefined;
  #auth: StoredAuthState | undefined;
  /** Increments per socket: events of an older socket are ignored. */
  #generation = 0;
  #qrShown = 0;
  #reconnects = 0;
  #cancelRetry: (() => void) | undefined;
  /** A close we caused, and the reason to report for it. */
  #closing: WhatsAppDisconnectReason | undefined;
  /** Writes of credentials, in order (never rejects); `connected` and a new socket wait for them. */
  #credsWritten: Promise<void> = Promise.resolve();
  #stopped = false;
  /** Names users through the current socket's LID mapping store. */
  #name: JidNamer = jidNamer(async () => null);
  /** True while this process holds the number's lease (and renews it). */
  #holding = false;
  /** True while another process holds the lease and this session waits, silent, to take over. */
  #waiting = false;
  #cancelRenewal: (() => void) | undefined;
  #cancelLeaseRetry: (() => void) | undefined;
  /**
   * The gateway's attempt behind each message id this process sent, newest last (at most
   * {@link SENT_ATTEMPTS_KEPT}): WhatsApp's receipts name the message only, and one that comes
   * before the gateway recorded the send's id is kept for the attempt only when it names it.
   */
  readonly #sentAttempts = new Map<string, string>();

  /** The session of `phoneNumber`; nothing happens until `open`. */
  constructor(
    phoneNumber: string,
    private readonly settings: SessionSettings,
    private readonly context: SessionContext,
  ) {
    this.phoneNumber = phoneNumber;
    this.memory = new MessageMemory(context.state, phoneNumber, () => settings.clock.now());
    this.groups = new GroupMetadataCache(() => settings.clock.now());
  }

  /** Notes that `messageId` is about to be sent for the gateway's attempt `attemptId`. */
  noteSend(messageId: string, attemptId: string): void {
    this.#sentAttempts.delete(messageId);
    this.#sentAttempts.set(messageId, attemptId);
    if (this.#sentAttempts.size > SENT_ATTEMPTS_KEPT) {
      const oldest = this.#sentAttempts.keys().next().value;
      if (oldest !== undefined) this.#sentAttempts.delete(oldest);
    }
  }

  /** `events` with the attempt of each status of a message this process sent, when known. */
  #withAttempts(events: readonly ProviderInboundEvent[]): ProviderInboundEvent[] {
    return events.map((event) => {
      if (event.kind !== 'message.status' || event.attemptId !== undefined) return event;
      const attemptId = this.#sentAttempts.get(event.externalId);
      return attemptId === undefined ? event : { ...event, attemptId };
    });
  }

  /** The state right now. */
  snapshot(): WhatsAppSessionSnapshot {
    return {
      phoneNumber: this.phoneNumber,
      status: this.#status,
      ...(this.#status === 'qr_pending' && this.#qrCode ? { qrCode: this.#qrCode } : {}),
      ...(this.#pairingCode && this.#status !== 'connected' && this.#status !== 'disconnected'
        ? { pairingCode: this.#pairingCode }
        : {}),
      ...(this.#jid ? { jid: this.#jid } : {}),
      ...(this.#status === 'disconnected' && this.#reason
        ? { disconnectReason: this.#reason }
        : {}),
    };
  }

  /** True while a socket is open or opening, or the session waits for the number's lease. */
  get live(): boolean {
    return this.#status !== 'disconnected' || this.#waiting;
  }

  get #leaseName(): string {
    return `whatsapp:${this.phoneNumber}`;
  }

  /** The socket of a connected session; INVALID_STATUS otherwise. */
  /** True while another process holds the number's lease (and its socket): sends go there. */
  get heldElsewhere(): boolean {
    return this.#waiting;
  }

  connectedSocket(): BaileysSocket {
    if (this.#waiting) {
      // Retryable on this channel, no fallback: the send goes back to `queued`, where the
      // dispatcher of the process holding the socket takes it.
      throw new ProviderError(
        'INVALID_STATUS',
        `The WhatsApp session of ${this.phoneNumber} is held by another server process`,
        { retryable: true, fallback: false, channel: 'whatsapp' },
      );
    }
    if (this.#status !== 'connected' || !this.#socket) {
      throw new ProviderError(
        'INVALID_STATUS',
        `The WhatsApp session of ${this.phoneNumber} is ${this.#status}: connect it first`,
        { retryable: true, fallback: true, channel: 'whatsapp' },
      );
    }
    return this.#socket;
  }

  /**
   * Opens a socket: reconnects with stored credentials, otherwise walks to `qr_pending`. First it
   * takes the number's lease; while another process holds it, the session waits without a word
   * and takes over once that lease is given up or expires.
   */
  async open(): Promise<void> {
    this.#stopped = false;
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
    this.#cancelLeaseRetry?.();
    this.#cancelLeaseRetry = undefined;
    this.#qrShown = 0;
    if (!(await this.#takeLease())) {
      this.#waitForLease();
      return;
    }
    this.#waiting = false;
    await this.#setStatus('connecting');
    await this.#openSocket();
  }

  async #takeLease(): Promise<boolean> {
    const held = await this.context.leases.acquire(this.#leaseName, this.settings.leaseTtlMs);
    if (held && !this.#holding) {
      this.#holding = true;
      this.#renewLater();
    }
    return held;
  }

  #renewLater(): void {
    this.#cancelRenewal = this.settings.clock.schedule(this.settings.leaseTtlMs / 3, () => {
      if (!this.#holding) return;
      this.context.leases.acquire(this.#leaseName, this.settings.leaseTtlMs).then(
        (held) => {
          if (!this.#holding) return;
          if (held) {
            this.#renewLater();
            return;
          }
          // Another process took the number (this one stalled past the lease): hand it over.
          this.context.logger.warn(
            { phoneNumber: this.phoneNumber },
            'whatsapp lease lost to another process: closing this socket',
          );
          this.#holding = false;
          void this.#closeSilently().then(() => this.#waitForLease());
        },
        (error: unknown) => {
          this.context.logger.error(
            { err: error, phoneNumber: this.phoneNumber },
            'whatsapp lease renewal failed',
          );
          if (this.#holding) this.#renewLater();
        },
      );
    });
  }

  #waitForLease(): void {
    this.#waiting = true;
    this.#cancelLeaseRetry = this.settings.clock.schedule(this.settings.leaseRetryMs, () => {
      this.#cancelLeaseRetry = undefined;
      if (this.#stopped || !this.#waiting) return;
      this.open().catch((error: unknown) => {
        this.context.logger.error(
          { err: error, phoneNumber: this.phoneNumber },
          'whatsapp session could not take over',
        );
      });
    });
  }

  async #releaseLease(): Promise<void> {
    this.#waiting = false;
    this.#cancelLeaseRetry?.();
    this.#cancelLeaseRetry = undefined;
    this.#cancelRenewal?.();
    this.#cancelRenewal = undefined;
    if (!this.#holding) return;
    this.#holding = false;
    await this.context.leases.release(this.#leaseName).catch((error: unknown) => {
      this.context.logger.warn(
        { err: error, phoneNumber: this.phoneNumber },
        'whatsapp lease could not be released; it expires on its own',
      );
    });
  }

  async #closeSilently(): Promise<void> {
    this.#generation += 1;
    const socket = this.#socket;
    this.#socket = undefined;
    this.#status = 'disconnected';
    await socket?.end(undefined);
  }

  /** Asks WhatsApp for a pairing code for `pairingPhoneNumber` (digits only are sent). */
  async requestPairingCode(pairingPhoneNumber: string): Promise<string> {
    if (!this.#socket || this.#status === 'connected' || this.#status === 'disconnected') {
      throw new ProviderError('INVALID_STATUS', `${this.phoneNumber} is not pairing`);
    }
    const code = await this.#socket.requestPairingCode(pairingPhoneNumber.replace(/\D/g, ''));
    this.#pairingCode = code;
    await this.context.delivery.deliver({
      kind: 'whatsapp.pairing_code',
      channel: 'whatsapp',
      phoneNumber: this.phoneNumber,
      code,
      occurredAt: new Date(this.settings.clock.now()),
    });
    return code;
  }

  /** Closes the socket and keeps the credentials (`disconnected_by_api`). */
  async disconnect(reason: WhatsAppDisconnectReason = 'disconnected_by_api'): Promise<void> {
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
    if (this.#socket) {
      this.#closing = reason;
      await this.#socket.end(undefined);
    } else {
      // A socket still being opened (its credentials being read) is abandoned.
      this.#generation += 1;
    }
    if (this.#status !== 'disconnected') await this.#drop(reason);
    await this.#releaseLease();
  }

  /** Logs the device out (when connected) and wipes the credentials. */
  async logout(): Promise<void> {
    this.#cancelRetry?.();
    const socket = this.#socket;
    this.#closing = 'logged_out';
    if (socket && this.#status === 'connected') {
      await socket.logout().catch((error: unknown) => {
        this.context.logger.warn({ err: error, phoneNumber: this.phoneNumber }, 'logout failed');
      });
    } else if (socket) {
      await socket.end(undefined);
    }
    this.#socket = undefined;
    this.#generation += 1;
    await this.#credsWritten;
    await wipeAuthState(this.context.state, this.phoneNumber);
    this.#status = 'disconnected';
    this.#reason = 'logged_out';
    await this.#releaseLease();
  }

  /** Closes the socket without reporting anything (the provider stops). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancelRetry?.();
    this.#generation += 1;
    const socket = this.#socket;
    this.#socket = undefined;
    await socket?.end(undefined);
    await this.#credsWritten;
    await this.#releaseLease();
  }

  async #openSocket(): Promise<void> {
    this.#generation += 1;
    const generation = this.#generation;
    this.#closing = undefined;
    // The 515 restart after pairing comes right after the new credentials: read them once stored.
    await this.#credsWritten;
    const auth = await loadStoredAuthState(this.context.state, this.phoneNumber);
    // Stopped, or opened again, while the credentials were read: that socket is not wanted.
    if (generation !== this.#generation || this.#stopped) return;
    this.#auth = auth;
    const socket = this.#createSocket(auth);
    this.#socket = socket;
    const { on, inOrder } = socketSubscriptions(
      socket,
      () => generation === this.#generation && !this.#stopped,
      (error, event) => {
        this.context.logger.error(
          { err: error, event, phoneNumber: this.phoneNumber },
          'whatsapp event handling failed',
        );
      },
    );
    on('creds.update', async () => {
      const written = this.#credsWritten.then(() => auth.saveCreds());
      // A failed write is logged (by `on`); the chain stays usable for the next ones.
      this.#credsWritten = written.catch(() => undefined);
      await written;
    });
    on('connection.update', (update) => this.#onConnection(update, socket, generation));
    this.#listenToUpstream(socket, inOrder);
  }

  /** A socket on the stored credentials, with the session's settings and caches. */
  #createSocket(auth: StoredAuthState): BaileysSocket {
    const logger = baileysLogger(this.context.logger, { phoneNumber: this.phoneNumber });
    return this.settings.socketFactory({
      auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, logger) },
      logger,
      version: this.settings.version,
      browser: this.settings.browser,
      markOnlineOnConnect: this.settings.markOnlineOnConnect,
      // Baileys hands `agent` to its WebSocket (lib/Socket/Client/websocket.js:25-31) and
      // `fetchAgent` to media uploads (lib/Utils/messages-media.js:643-673, node https on Node).
      ...(this.settings.proxy
        ? { agent: this.settings.proxy.agent, fetchAgent: this.settings.proxy.agent }
        : {}),
      ...(this.settings.waWebSocketUrl ? { waWebSocketUrl: this.settings.waWebSocketUrl } : {}),
      syncFullHistory: false,
      emitOwnEvents: false,
      cachedGroupMetadata: async (jid) => this.groups.get(jid),
      getMessage: async (key) =>
        (key.id ? (await this.memory.recall(key.id))?.message : undefined) ?? undefined,
    });
  }

  /**
   * Listens, in order, to what WhatsApp reports about messages and chats: messages, their
   * updates and receipts, presence, groups and their members, and `@lid` mappings.
   */
  #listenToUpstream(socket: BaileysSocket, inOrder: SubscribeToSocket): void {
    // `notify` is a message received live, `append` one WhatsApp held while this socket was away
    // (Baileys: `node.attrs.offline ? 'append' : 'notify'`): both are news. History arrives as
    // `messaging-history.set`, which is not imported (docs/providers/whatsapp.md).
    inOrder('messages.upsert', async ({ messages }) => {
      for (const message of messages) await this.#onMessage(message, socket);
    });
    const name = jidNamer((lid) => socket.signalRepository.lidMapping.getPNForLID(lid));
    /** Who is typing in which chat, as this socket heard: a pause reads like "online". */
    const typing = new Set<string>();
    this.#name = name;
    inOrder('messages.update', async (updates) => {
      for (const update of updates) {
        await this.#deliverAll(
          this.#withAttempts(await eventsOfUpdate(update, this.phoneNumber, name)),
        );
      }
    });
    inOrder('message-receipt.update', async (updates) => {
      for (const update of updates) {
        await this.#deliverAll(this.#withAttempts(await eventsOfReceipt(update, name)));
      }
    });
    inOrder('presence.update', async (update) => {
      for (const event of await eventsOfPresence(update, this.phoneNumber, name, typing)) {
        this.context.delivery.fire(event);
      }
    });
    inOrder('group-participants.update', async (update) => {
      this.groups.drop(update.id);
      await this.#deliverAll(await eventsOfParticipants(update, this.phoneNumber, name));
    });
    inOrder('groups.update', async (updates) => {
      this.groups.update(updates);
      await this.#deliverAll(eventsOfGroupUpdates(updates, this.phoneNumber));
    });
    inOrder('lid-mapping.update', async ({ lid, pn }) => {
      await this.context.delivery.deliver({
        kind: 'whatsapp.lid_resolved',
        channel: 'whatsapp',
        occurredAt: new Date(this.settings.clock.now()),
        upstreamEventId: `lid:${lid}:${pn}`,
        phoneNumber: this.phoneNumber,
        lid: normalizedJid(lid),
        jid: normalizedJid(pn),
      });
    });
  }

  async #onMessage(message: WAMessage, socket: BaileysSocket): Promise<void> {
    await this.memory.remember(message);
    const events = await eventsOfMessage(message, {
      phoneNumber: this.phoneNumber,
      download: (media) =>
        this.settings.download(media, {
          socket,
          logger: baileysLogger(this.context.logger, { phoneNumber: this.phoneNumber }),
        }),
      name: this.#name,
    });
    await this.#deliverAll(events);
  }

  async #deliverAll(events: readonly ProviderInboundEvent[]): Promise<void> {
    for (const event of events) await this.context.delivery.deliver(event);
  }

  async #onConnection(
    update: BaileysEventMap['connection.update'],
    socket: BaileysSocket,
    generation: number,
  ): Promise<void> {
    if (update.qr) {
      this.#qrShown += 1;
      if (this.#qrShown > this.settings.maxQrCodes) {
        this.#closing = 'qr_timeout';
        await socket.end(undefined);
        return;
      }
      this.#qrCode = update.qr;
      await this.#setStatus('qr_pending');
      return;
    }
    if (update.connection === 'open') {
      await this.#credsWritten;
      if (generation !== this.#generation) return;
      this.#reconnects = 0;
      this.#qrShown = 0;
      this.#pairingCode = undefined;
      this.#qrCode = undefined;
      const id = socket.user?.id ?? this.#auth?.state.creds.me?.id;
      this.#jid = id ? normalizedJid(id) : undefined;
      await this.#setStatus('connected');
      return;
    }
    if (update.connection === 'close') await this.#onClose(update.lastDisconnect?.error);
  }

  async #onClose(error: unknown): Promise<void> {
    this.#socket = undefined;
    this.#generation += 1;
    const intended = this.#closing;
    this.#closing = undefined;
    if (intended === 'logged_out') return;
    if (intended) {
      await this.#drop(intended);
      await this.#releaseLease();
      return;
    }
    const code = closeStatusCode(error);
    const pairing = !this.#auth?.state.creds.me;
    const decision = decideOnClose(code, pairing);
    this.context.logger.info(
      { phoneNumber: this.phoneNumber, statusCode: code, action: decision.action },
      `whatsapp session closed: ${decision.explanation}`,
    );
    switch (decision.action) {
      case 'restart':
        this.#qrCode = undefined;
        await this.#setStatus('connecting');
        await this.#openSocket();
        return;
      case 'logout':
        await this.#credsWritten;
        await wipeAuthState(this.context.state, this.phoneNumber);
        this.#jid = undefined;
        await this.#drop('logged_out');
        await this.#releaseLease();
        return;
      case 'stop':
        await this.#drop(decision.reason);
        await this.#releaseLease();
        return;
      case 'reconnect': {
        await this.#drop(decision.reason);
        const delays = this.settings.reconnectDelaysMs;
        const delay = delays[Math.min(this.#reconnects, delays.length - 1)] ?? 1000;
        this.#reconnects += 1;
        this.#cancelRetry = this.settings.clock.schedule(delay, () => {
          this.#cancelRetry = undefined;
          if (this.#stopped || this.#status !== 'disconnected') return;
          this.#setStatus('connecting')
            .then(() => this.#openSocket())
            .catch((failure: unknown) => {
              this.context.logger.error(
                { err: failure, phoneNumber: this.phoneNumber },
                'whatsapp reconnect failed',
              );
            });
        });
        return;
      }
    }
  }

  async #drop(reason: WhatsAppDisconnectReason): Promise<void> {
    this.#socket = undefined;
    this.#qrCode = undefined;
    this.#pairingCode = undefined;
    this.#reason = reason;
    await this.#setStatus('disconnected');
  }

  async #setStatus(status: LiveStatus): Promise<void> {
    // A rotated QR code is news; any other state is reported when it changes.
    const changed = status !== this.#status || status === 'qr_pending';
    this.#status = status;
    if (!changed) return;
    const base = {
      kind: 'whatsapp.connection' as const,
      channel: 'whatsapp' as const,
      phoneNumber: this.phoneNumber,
      occurredAt: new Date(this.settings.clock.now()),
    };
    let event: ProviderWhatsAppConnectionEvent;
    switch (status) {
      case 'qr_pending':
        event = { ...base, state: 'qr_pending', qrCode: this.#qrCode ?? '' };
        break;
      case 'connected':
        event = { ...base, state: 'connected', jid: this.#jid ?? '' };
        break;
      case 'disconnected':
        event = { ...base, state: 'disconnected', reason: this.#reason ?? 'connection_lost' };
        break;
      default:
        event = { ...base, state: 'connecting' };
    }
    await this.context.delivery.deliver(event);
  }
}
