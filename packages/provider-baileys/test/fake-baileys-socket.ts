/**
 * A fake of Baileys' socket for tests, typed against Baileys' own declarations. It does not fake
 * the WhatsApp wire protocol: it plays what a socket reports (connection updates, credentials,
 * messages, receipts) through Baileys' real event buffer, on a scripted lifecycle, with
 * injectors for what a phone or a contact would do. Never part of a shipped bundle.
 */
import { randomBytes } from 'node:crypto';
import { Boom } from '@hapi/boom';
import type { TimerClock } from '@switchboard/provider-kit';
import {
  type AnyMessageContent,
  type BaileysEventMap,
  DEFAULT_CONNECTION_CONFIG,
  DisconnectReason,
  type GroupMetadata,
  type GroupParticipant,
  generateWAMessage,
  generateWAMessageFromContent,
  isLidUser,
  jidDecode,
  jidNormalizedUser,
  makeEventBuffer,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
  WAMessageAddressingMode,
  type WAMessageKey,
  WAMessageStubType,
} from 'baileys';
import type {
  BaileysLogger,
  BaileysMediaDownloader,
  BaileysSocket,
  BaileysSocketFactory,
} from '../src/baileys-socket';

/** What a recipient's phone does with a message sent to it. */
export type FakeRecipientBehaviour = 'read' | 'delivered' | 'none' | 'fail';

/** A WhatsApp user the fake network knows. */
export interface FakeWhatsAppUser {
  /** E.164. */
  phoneNumber: string;
  /** The user's linked-device id, `<digits>@lid`. */
  lid: string;
  /** What happens to messages sent to them (default `read`). */
  behaviour?: FakeRecipientBehaviour;
  /**
   * The error WhatsApp's server puts on its negative ack of a message to them under `fail`
   * (default `'463'`: WhatsApp's "account restricted / missing privacy token").
   */
  failCode?: string;
}

/** A message a contact sends to an owned number. */
export interface FakeInboundMessage {
  /** The sender, E.164. */
  from: string;
  /** Text (a caption when `media` is given). */
  text?: string;
  /** The message id (default: a new one). */
  id?: string;
  /** A group the message was sent in. */
  groupId?: string;
  /** Address the sender by `@lid`: with the phone JID beside it (`alt`), or without. */
  lid?: 'with-alt' | 'without-alt';
  /** The id of the message it quotes. */
  quotedId?: string;
  /** Members mentioned, E.164. */
  mentions?: readonly string[];
  /**
   * The message content as WhatsApp delivers it, for kinds the other fields do not build
   * (location, contact, poll, video note…): replaces `text`, `media`, `quotedId` and `mentions`.
   */
  content?: proto.IMessage;
  /** A media attachment. */
  media?: {
    kind: 'image' | 'document' | 'audio';
    mimeType: string;
    data: Uint8Array;
    fileName?: string;
  };
  /** The sender's push name. */
  pushName?: string;
  /** Sent from the owned number's own phone (fromMe). */
  fromMe?: boolean;
}

const USER_SERVER = 's.whatsapp.net';

function digits(phoneNumber: string): string {
  return phoneNumber.replace(/\D/g, '');
}

function newMessageId(): string {
  return `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
}

/**
 * The error Baileys throws for a WhatsApp query answered with an error node: the node's text as
 * the message and its code in `data`, never as the Boom's `statusCode` (which stays 500).
 */
function iqError(code: number, text: string): Boom {
  return new Boom(text, { data: code });
}

/** The socket calls a test can have WhatsApp refuse. */
export type FakeRefusableCall = 'sendMessage' | 'groupCreate' | 'groupUpdateSubject' | 'groupLeave';

function seconds(clock: TimerClock): number {
  return Math.floor(clock.now() / 1000);
}

/** True for content Baileys turns into a media message (uploaded to WhatsApp's CDN first). */
function isMediaContent(content: AnyMessageContent): boolean {
  return ['image', 'video', 'audio', 'document', 'sticker'].some((kind) => kind in content);
}

/**
 * The proto message of media content, built here because Baileys' own `prepareWAMessageMedia`
 * uploads (and fetches `{ url }` media): the fields the gateway reads, as Baileys sets them.
 */
function mediaProtoOf(content: AnyMessageContent): proto.IMessage {
  const c = content as Record<string, unknown>;
  const contextInfo =
    Array.isArray(c.mentions) && c.mentions.length > 0
      ? { mentionedJid: c.mentions as string[] }
      : null;
  const caption = typeof c.caption === 'string' ? c.caption : null;
  const mimetype = typeof c.mimetype === 'string' ? c.mimetype : null;
  if (c.image)
    return { imageMessage: { caption, mimetype: mimetype ?? 'image/jpeg', contextInfo } };
  if (c.video) return { videoMessage: { caption, mimetype: mimetype ?? 'video/mp4', contextInfo } };
  if (c.audio)
    return {
      audioMessage: { mimetype: mimetype ?? 'audio/ogg; codecs=opus', ptt: c.ptt === true },
    };
  if (c.document) {
    return {
      documentMessage: {
        caption,
        mimetype,
        fileName: typeof c.fileName === 'string' ? c.fileName : null,
        contextInfo,
      },
    };
  }
  throw new Boom('unsupported content in the fake', { statusCode: 400 });
}

/**
 * The fake WhatsApp side: users, linked devices, groups and the sockets open on them. Tests
 * script a phone (scan a QR, type a pairing code, unlink), contacts (send, react, edit, revoke)
 * and the network (drop a connection with any disconnect reason).
 */
export class FakeWhatsAppNetwork {
  /** Every socket opened, oldest first. */
  readonly sockets: FakeBaileysSocket[] = [];
  /**
   * Chat states a contact sees, as `[jid, presence]`: sent after a `presenceSubscribe` to that
   * chat. Those sent without one land in {@link unseenPresences}.
   */
  readonly presences: [string, string][] = [];
  /** Chat states sent to a chat never subscribed to (WhatsApp does not show them). */
  readonly unseenPresences: [string, string][] = [];
  /** Chats subscribed to with `presenceSubscribe`, in order. */
  readonly presenceSubscriptions: string[] = [];
  /** The group metadata queries sockets made (a send to a group without a cache makes one). */
  readonly groupQueries: string[] = [];
  /** Refusals queued by {@link refuseNext}, per call. */
  readonly #refusals = new Map<FakeRefusableCall, Error[]>();
  /** `@lid` → phone JID mappings WhatsApp has shared with the linked devices. */
  readonly #lidToPn = new Map<string, string>();
  readonly #users = new Map<string, FakeWhatsAppUser>();
  /** Linked devices: the noise public key of their credentials → the account's phone digits. */
  readonly #linked = new Map<string, string>();
  readonly #groups = new Map<string, GroupMetadata>();
  readonly #media = new Map<string, Uint8Array>();
  #device = 10;

  /**
   * A network on `clock` (QR rotation, receipts). With `everyone`, every number is on WhatsApp
   * (for manual trials); otherwise only the users added.
   */
  constructor(
    readonly clock: TimerClock,
    readonly options: {
      qrRefs?: number;
      firstQrMs?: number;
      nextQrMs?: number;
      receiptDelayMs?: number;
      /**
       * How long `sendMessage` takes to answer (default at once). Receipts are timed from when it
       * was called, so a delay longer than `receiptDelayMs` has them arrive before the answer:
       * the race between a send's answer and its statuses, at its widest.
       */
      answerDelayMs?: number;
      everyone?: boolean;
    } = {},
  ) {}

  /** The socket factory to hand the adapter. */
  readonly socketFactory: BaileysSocketFactory = (config) => {
    const socket = new FakeBaileysSocket(config, this);
    this.sockets.push(socket);
    return socket;
  };

  /** The media downloader to hand the adapter: bytes of media injected by tests. */
  readonly download: BaileysMediaDownloader = async (message) => {
    const data = message.key.id ? this.#media.get(message.key.id) : undefined;
    if (!data) throw new Boom('media not found on the fake CDN', { statusCode: 404 });
    return data;
  };

  /**
   * WhatsApp refuses the next `call` with a query error (`code`, `text`), as Baileys throws it;
   * `timeout` has it time out instead (Boom 408) and `closed` find the connection closed (428).
   */
  refuseNext(
    call: FakeRefusableCall,
    code: number | 'timeout' | 'closed',
    text = 'forbidden',
  ): void {
    const error =
      code === 'timeout'
        ? new Boom('Timed Out', { statusCode: DisconnectReason.timedOut })
        : code === 'closed'
          ? new Boom('Connection Closed', { statusCode: DisconnectReason.connectionClosed })
          : iqError(code, text);
    this.#refusals.set(call, [...(this.#refusals.get(call) ?? []), error]);
  }

  /** Throws the refusal queued for `call`, if any. */
  refusal(call: FakeRefusableCall): void {
    const queued = this.#refusals.get(call);
    const next = queued?.shift();
    if (next) throw next;
  }

  /** Adds a WhatsApp user. */
  addUser(user: FakeWhatsAppUser): this {
    this.#users.set(digits(user.phoneNumber), user);
    return this;
  }

  /** The user with this number, if on WhatsApp. */
  user(phoneNumber: string): FakeWhatsAppUser | undefined {
    const known = this.#users.get(digits(phoneNumber));
    if (known || !this.options.everyone || !/^\d{8,15}$/.test(digits(phoneNumber))) return known;
    return { phoneNumber: `+${digits(phoneNumber)}`, lid: `9${digits(phoneNumber)}@lid` };
  }

  /** The sockets open now (not ended). */
  openSockets(): FakeBaileysSocket[] {
    return this.sockets.filter((socket) => !socket.ended);
  }

  /** The open socket of an owned number (linked or pairing). */
  socketOf(phoneNumber: string): FakeBaileysSocket {
    const socket = [...this.openSockets()]
      .reverse()
      .find((candidate) => candidate.owner === digits(phoneNumber));
    if (!socket) throw new Error(`no open socket for ${phoneNumber}`);
    return socket;
  }

  /** The phone scans the QR code a socket shows: links the device as `phoneNumber`. */
  async scanQr(phoneNumber: string): Promise<void> {
    const socket = this.sockets.find((candidate) => !candidate.ended && candidate.showingQr);
    if (!socket) throw new Error('no socket is showing a QR code');
    await socket.pairSucceeded(digits(phoneNumber));
  }

  /** The phone enters the pairing code a socket asked for. */
  async enterPairingCode(code: string): Promise<void> {
    const socket = this.sockets.find(
      (candidate) => !candidate.ended && candidate.pendingCode === code,
    );
    if (!socket?.pendingPhone) throw new Error(`no socket waits for pairing code ${code}`);
    await socket.pairSucceeded(socket.pendingPhone);
  }

  /** The phone unlinks the device of `phoneNumber`: its socket closes with 401. */
  async unlinkFromPhone(phoneNumber: string): Promise<void> {
    for (const [key, owner] of this.#linked)
      if (owner === digits(phoneNumber)) this.#linked.delete(key);
    await this.socketOf(phoneNumber).end(
      new Boom('Intentional Logout', { statusCode: DisconnectReason.loggedOut }),
    );
  }

  /** The connection of `phoneNumber` drops with `statusCode` (any `DisconnectReason`, or 405). */
  async dropConnection(phoneNumber: string, statusCode: number): Promise<void> {
    await this.socketOf(phoneNumber).end(new Boom('Connection Failure', { statusCode }));
  }

  /** A contact sends a message to `to` (an owned number): `messages.upsert` of type notify. */
  async receive(to: string, input: FakeInboundMessage): Promise<WAMessage> {
    return this.#deliver(to, input, 'notify');
  }

  /**
   * A contact sent a message while the socket of `to` was away: WhatsApp holds it and hands it
   * over with the `offline` attribute once the socket is back, which Baileys upserts as `append`.
   */
  async receiveWhileOffline(to: string, input: FakeInboundMessage): Promise<WAMessage> {
    return this.#deliver(to, input, 'append');
  }

  async #deliver(
    to: string,
    input: FakeInboundMessage,
    type: 'notify' | 'append',
  ): Promise<WAMessage> {
    const socket = this.socketOf(to);
    const message = this.#inbound(input);
    if (input.media && message.key.id) this.#media.set(message.key.id, input.media.data);
    // Baileys stores the mapping a message's alternate JID gives, without an event.
    const user = this.user(input.from);
    if (input.lid === 'with-alt' && user) {
      this.#lidToPn.set(user.lid, `${digits(input.from)}@${USER_SERVER}`);
    }
    socket.emit('messages.upsert', { messages: [message], type });
    return message;
  }

  /** The phone's history sync after linking: `messaging-history.set`, never `messages.upsert`. */
  async history(to: string, inputs: readonly FakeInboundMessage[]): Promise<void> {
    const messages = inputs.map((input) => this.#inbound(input));
    this.socketOf(to).emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages,
      isLatest: true,
      progress: 100,
      syncType: proto.HistorySync.HistorySyncType.RECENT,
    });
  }

  /** A contact reacts to a message (`''` takes the reaction back). */
  async react(to: string, from: string, target: WAMessageKey, emoji: string): Promise<void> {
    await this.#protocolish(to, from, {
      reactionMessage: { key: target, text: emoji, senderTimestampMs: this.clock.now() },
    });
  }

  /**
   * A contact edits a message they sent: the protocol message arrives as an upsert, and Baileys'
   * message processing reports the edit once more as `messages.update`.
   */
  async edit(to: string, from: string, targetId: string, text: string): Promise<void> {
    const target = { remoteJid: `${digits(from)}@${USER_SERVER}`, id: targetId, fromMe: false };
    await this.#protocolish(to, from, {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
        key: target,
        editedMessage: { conversation: text },
      },
    });
    this.socketOf(to).emit('messages.update', [
      { key: target, update: { message: { editedMessage: { message: { conversation: text } } } } },
    ]);
  }

  /** A contact deletes a message for everyone: an upsert, then `messages.update` (stub REVOKE). */
  async revoke(to: string, from: string, targetId: string): Promise<void> {
    const target = { remoteJid: `${digits(from)}@${USER_SERVER}`, id: targetId, fromMe: false };
    await this.#protocolish(to, from, {
      protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: target },
    });
    this.socketOf(to).emit('messages.update', [
      { key: target, update: { message: null, messageStubType: WAMessageStubType.REVOKE } },
    ]);
  }

  /**
   * WhatsApp tells which phone number a `@lid` belongs to (`lid-mapping.update`); Baileys stores
   * the mapping, which `signalRepository.lidMapping` answers from then on.
   */
  async resolveLid(to: string, phoneNumber: string): Promise<void> {
    const user = this.user(phoneNumber);
    if (!user) throw new Error(`${phoneNumber} is not a fake user`);
    const pn = `${digits(phoneNumber)}@${USER_SERVER}`;
    this.#lidToPn.set(user.lid, pn);
    this.socketOf(to).emit('lid-mapping.update', { lid: user.lid, pn });
  }

  /** Stores a mapping without an event (as Baileys does from a history sync or a send). */
  learnLid(phoneNumber: string): void {
    const user = this.user(phoneNumber);
    if (!user) throw new Error(`${phoneNumber} is not a fake user`);
    this.#lidToPn.set(user.lid, `${digits(phoneNumber)}@${USER_SERVER}`);
  }

  /** The phone JID stored for a `@lid`, when WhatsApp shared it. */
  pnOfLid(lid: string): string | undefined {
    return this.#lidToPn.get(jidNormalizedUser(lid));
  }

  /**
   * A contact types (`composing`, `recording` a voice note), pauses, or comes online or goes
   * offline. As Baileys reports it: a pause is `available`, the same as coming online.
   */
  async presence(
    to: string,
    from: string,
    state: 'composing' | 'recording' | 'paused' | 'online' | 'offline',
  ): Promise<void> {
    const jid = `${digits(from)}@${USER_SERVER}`;
    const lastKnownPresence =
      state === 'paused' || state === 'online'
        ? 'available'
        : state === 'offline'
          ? 'unavailable'
          : state;
    this.socketOf(to).emit('presence.update', {
      id: jid,
      presences: { [jid]: { lastKnownPresence } },
    });
  }

  /**
   * Someone changes a group's members. With `byLid`, the members are named by their `@lid` alone
   * (WhatsApp sends no phone number beside them).
   */
  async groupParticipants(
    to: string,
    groupId: string,
    author: string,
    action: 'add' | 'remove' | 'promote' | 'demote',
    members: readonly string[],
    byLid = false,
  ): Promise<void> {
    const authorLid = this.user(author)?.lid;
    this.socketOf(to).emit('group-participants.update', {
      id: groupId,
      ...(byLid && authorLid
        ? { author: authorLid, authorPn: `${digits(author)}@${USER_SERVER}` }
        : { author: `${digits(author)}@${USER_SERVER}` }),
      participants: members.map((member) => {
        const lid = this.user(member)?.lid;
        if (byLid && lid) return { id: lid };
        const jid = `${digits(member)}@${USER_SERVER}`;
        return { id: jid, phoneNumber: jid };
      }),
      action,
    });
  }

  /**
   * Someone renames a group: the subject stub becomes `groups.update` with the subject and its
   * `author` (the `@lid` in a LID-addressed group, the phone JID beside it as `authorPn`).
   */
  async groupSubject(to: string, groupId: string, author: string, subject: string): Promise<void> {
    const known = this.#groups.get(groupId);
    if (known) known.subject = subject;
    const lid = this.user(author)?.lid;
    this.socketOf(to).emit('groups.update', [
      {
        id: groupId,
        subject,
        ...(lid
          ? { author: lid, authorPn: `${digits(author)}@${USER_SERVER}` }
          : { author: `${digits(author)}@${USER_SERVER}` }),
      },
    ]);
  }

  /**
   * WhatsApp marks the groups dirty and Baileys refetches every group it is in: `groups.update`
   * with each group's full metadata, no `author` (nobody changed anything).
   */
  async refreshGroups(to: string): Promise<void> {
    this.socketOf(to).emit(
      'groups.update',
      [...this.#groups.values()].map((metadata) => structuredClone(metadata)),
    );
  }

  /** The groups the fake knows. */
  group(id: string): GroupMetadata | undefined {
    return this.#groups.get(id);
  }

  /** Registers a group (created by a socket). */
  putGroup(metadata: GroupMetadata): void {
    this.#groups.set(metadata.id, metadata);
  }

  /** Records a linked device; answers its device number. */
  link(noiseKey: string, owner: string): number {
    this.#linked.set(noiseKey, owner);
    this.#device += 1;
    return this.#device;
  }

  /** The account a device's credentials are linked to, when still linked. */
  linkedOwner(noiseKey: string): string | undefined {
    return this.#linked.get(noiseKey);
  }

  /** Forgets a linked device (it logged out). */
  unlink(noiseKey: string): void {
    this.#linked.delete(noiseKey);
  }

  #inbound(input: FakeInboundMessage): WAMessage {
    const user = this.user(input.from);
    const phoneJid = `${digits(input.from)}@${USER_SERVER}`;
    const senderJid = input.lid && user ? user.lid : phoneJid;
    const alt = input.lid === 'with-alt' ? phoneJid : undefined;
    const group = input.groupId;
    const key: WAMessageKey = group
      ? {
          remoteJid: group,
          fromMe: false,
          id: input.id ?? newMessageId(),
          participant: senderJid,
          ...(alt ? { participantAlt: alt } : {}),
        }
      : {
          remoteJid: input.fromMe ? `${digits(input.from)}@${USER_SERVER}` : senderJid,
          fromMe: input.fromMe === true,
          id: input.id ?? newMessageId(),
          ...(alt ? { remoteJidAlt: alt } : {}),
          ...(input.lid ? { addressingMode: 'lid' } : {}),
        };
    const contextInfo =
      input.quotedId || input.mentions
        ? {
            ...(input.quotedId
              ? { stanzaId: input.quotedId, quotedMessage: { conversation: '' } }
              : {}),
            ...(input.mentions
              ? { mentionedJid: input.mentions.map((m) => `${digits(m)}@${USER_SERVER}`) }
              : {}),
          }
        : undefined;
    let message: proto.IMessage;
    if (input.content) {
      message = input.content;
    } else if (input.media) {
      const base = {
        mimetype: input.media.mimeType,
        fileLength: input.media.data.byteLength,
        caption: input.text ?? null,
        contextInfo: contextInfo ?? null,
      };
      message =
        input.media.kind === 'image'
          ? { imageMessage: base }
          : input.media.kind === 'audio'
            ? {
                audioMessage: {
                  mimetype: input.media.mimeType,
                  fileLength: input.media.data.byteLength,
                  ptt: true,
                },
              }
            : { documentMessage: { ...base, fileName: input.media.fileName ?? 'file' } };
    } else {
      message = contextInfo
        ? { extendedTextMessage: { text: input.text ?? '', contextInfo } }
        : { conversation: input.text ?? '' };
    }
    return {
      key,
      message: proto.Message.create(message),
      messageTimestamp: seconds(this.clock),
      ...(input.pushName ? { pushName: input.pushName } : {}),
    };
  }

  async #protocolish(to: string, from: string, message: proto.IMessage): Promise<void> {
    const key: WAMessageKey = {
      remoteJid: `${digits(from)}@${USER_SERVER}`,
      fromMe: false,
      id: newMessageId(),
    };
    this.socketOf(to).emit('messages.upsert', {
      messages: [{ key, message, messageTimestamp: seconds(this.clock) }],
      type: 'notify',
    });
  }
}

/**
 * One socket: the subset of `WASocket` the adapter uses. On creation it connects: with linked
 * credentials it opens (closing any other socket of the account with 440, as WhatsApp does);
 * with credentials the phone unlinked it closes with 401; without credentials it shows QR codes
 * that rotate (first after `firstQrMs`, then every `nextQrMs`) until the refs run out (408).
 */
export class FakeBaileysSocket implements BaileysSocket {
  readonly ev: BaileysSocket['ev'];
  user: BaileysSocket['user'];
  /**
   * Baileys' LID mapping store: `getPNForLID` answers from what WhatsApp shared (a message's
   * alternate JID, `lid-mapping.update`, a history sync), never by asking the network, in
   * Baileys' `<user>:<device>@s.whatsapp.net` form.
   */
  readonly signalRepository: BaileysSocket['signalRepository'];
  ended = false;
  showingQr = false;
  /** The account (phone digits) this socket is linked or pairing as. */
  owner: string | undefined;
  pendingCode: string | undefined;
  pendingPhone: string | undefined;
  /** Every message sent, in order. */
  readonly sent: {
    jid: string;
    content: AnyMessageContent;
    message: WAMessage;
    quoted?: WAMessage;
    /** For a group send: where the relay took the members from. */
    metadataFrom?: 'cache' | 'query';
  }[] = [];
  readonly #config: UserFacingSocketConfig;
  readonly #network: FakeWhatsAppNetwork;
  #cancelQr: (() => void) | undefined;
  #qrsShown = 0;

  /** Opens against `network` (asynchronously, as a real socket connects). */
  constructor(config: UserFacingSocketConfig, network: FakeWhatsAppNetwork) {
    this.#config = config;
    this.#network = network;
    this.ev = makeEventBuffer(config.logger as BaileysLogger);
    // As the real socket does: every credentials update lands in the auth state it was given.
    this.ev.on('creds.update', (update) => Object.assign(config.auth.creds, update));
    const me = config.auth.creds.me;
    this.owner = me ? me.id.split(/[:@]/)[0] : undefined;
    this.signalRepository = {
      lidMapping: {
        getPNForLID: async (lid) => {
          const decoded = jidDecode(lid);
          const pn = network.pnOfLid(lid);
          if (!decoded || !pn) return null;
          return `${pn.split('@')[0]}:${decoded.device ?? 0}@${USER_SERVER}`;
        },
      },
    };
    setImmediate(() => this.#connect());
  }

  get #noiseKey(): string {
    return Buffer.from(this.#config.auth.creds.noiseKey.public).toString('base64');
  }

  /** Emits an event as the socket would. */
  emit<E extends keyof BaileysEventMap>(event: E, data: BaileysEventMap[E]): void {
    if (this.ended) throw new Error('the socket has ended');
    this.ev.emit(event, data);
  }

  #connect(): void {
    if (this.ended) return;
    this.emit('connection.update', {
      connection: 'connecting',
      receivedPendingNotifications: false,
    });
    const creds = this.#config.auth.creds;
    if (creds.me) {
      const owner = this.#network.linkedOwner(this.#noiseKey);
      if (!owner) {
        void this.end(new Boom('Intentional Logout', { statusCode: DisconnectReason.loggedOut }));
        return;
      }
      for (const other of this.#network.openSockets()) {
        if (other !== this && other.owner === owner && !other.showingQr) {
          void other.end(
            new Boom('Stream Errored (conflict)', {
              statusCode: DisconnectReason.connectionReplaced,
            }),
          );
        }
      }
      this.user = { id: creds.me.id, ...(creds.me.name ? { name: creds.me.name } : {}) };
      this.emit('creds.update', {
        me: {
          ...creds.me,
          lid:
            creds.me.lid ??
            `${owner}${this.#network.user(`+${owner}`)?.lid.replace(/^\d+/, '') ?? '@lid'}`,
        },
      });
      this.emit('connection.update', { connection: 'open' });
      return;
    }
    this.#showQr(this.#network.options.firstQrMs ?? 60_000);
  }

  #showQr(ttlMs: number): void {
    if (this.ended || this.pendingCode) return;
    if (this.#qrsShown >= (this.#network.options.qrRefs ?? 6)) {
      void this.end(new Boom('QR refs attempts ended', { statusCode: DisconnectReason.timedOut }));
      return;
    }
    this.#qrsShown += 1;
    this.showingQr = true;
    const creds = this.#config.auth.creds;
    const qr = [
      `2@${randomBytes(16).toString('base64')}`,
      Buffer.from(creds.noiseKey.public).toString('base64'),
      Buffer.from(creds.signedIdentityKey.public).toString('base64'),
      creds.advSecretKey,
      '1',
    ].join(',');
    this.emit('connection.update', { qr });
    this.#cancelQr = this.#network.clock.schedule(ttlMs, () =>
      this.#showQr(this.#network.options.nextQrMs ?? 20_000),
    );
  }

  /** The phone confirmed the pairing as the account `owner`: creds, then the 515 restart. */
  async pairSucceeded(owner: string): Promise<void> {
    this.#cancelQr?.();
    this.showingQr = false;
    const device = this.#network.link(this.#noiseKey, owner);
    const lid = this.#network.user(`+${owner}`)?.lid ?? `${owner}@lid`;
    this.owner = owner;
    this.emit('creds.update', {
      me: {
        id: `${owner}:${device}@${USER_SERVER}`,
        lid: lid.replace('@', `:${device}@`),
        name: '~',
      },
      platform: 'android',
      registered: true,
    });
    this.emit('connection.update', { isNewLogin: true });
    await this.end(
      new Boom('Stream Errored (restart required)', {
        statusCode: DisconnectReason.restartRequired,
      }),
    );
  }

  async end(error: Error | undefined): Promise<void> {
    if (this.ended) return;
    this.#cancelQr?.();
    this.ev.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error, date: new Date(this.#network.clock.now()) },
    });
    this.ended = true;
    this.ev.flush();
  }

  async logout(): Promise<void> {
    this.#network.unlink(this.#noiseKey);
    await this.end(new Boom('Intentional Logout', { statusCode: DisconnectReason.loggedOut }));
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.#requireLive();
    if (!/^\d+$/.test(phoneNumber))
      throw new Boom('phone number must be digits only', { statusCode: 400 });
    const code = randomBytes(5).toString('hex').slice(0, 8).toUpperCase();
    this.pendingCode = code;
    this.pendingPhone = phoneNumber;
    this.#cancelQr?.();
    this.showingQr = false;
    this.#config.auth.creds.pairingCode = code;
    this.#config.auth.creds.me = { id: `${phoneNumber}@${USER_SERVER}`, name: '~' };
    this.emit('creds.update', this.#config.auth.creds);
    return code;
  }

  async sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: { quoted?: WAMessage; messageId?: string },
  ): Promise<WAMessage | undefined> {
    this.#requireOpen();
    this.#network.refusal('sendMessage');
    const userJid = this.user?.id ?? '';
    const messageId = options?.messageId ?? newMessageId();
    const quoted = options?.quoted;
    // Baileys' own message building, except media (whose upload the fake skips).
    const message = isMediaContent(content)
      ? generateWAMessageFromContent(jid, mediaProtoOf(content), {
          userJid,
          messageId,
          ...(quoted ? { quoted } : {}),
        })
      : await generateWAMessage(jid, content, {
          userJid,
          messageId,
          ...(quoted ? { quoted } : {}),
          upload: async () => {
            throw new Boom('the fake uploads no media', { statusCode: 500 });
          },
        });
    const group = jid.endsWith('@g.us');
    let metadataFrom: 'cache' | 'query' | undefined;
    if (group) {
      // Baileys' relay asks the socket config's cache first, else queries WhatsApp.
      const cached = await (
        this.#config.cachedGroupMetadata ?? DEFAULT_CONNECTION_CONFIG.cachedGroupMetadata
      )(jid);
      if (cached && Array.isArray(cached.participants)) {
        metadataFrom = 'cache';
      } else {
        metadataFrom = 'query';
        this.#network.groupQueries.push(jid);
        if (!this.#network.group(jid)) throw iqError(404, 'item-not-found');
      }
    }
    this.sent.push({
      jid,
      content,
      message,
      ...(quoted ? { quoted } : {}),
      ...(metadataFrom ? { metadataFrom } : {}),
    });
    if (!('react' in content)) this.#scheduleReceipts(jid, message.key);
    if (this.#config.emitOwnEvents ?? DEFAULT_CONNECTION_CONFIG.emitOwnEvents) {
      process.nextTick(() => {
        if (!this.ended) this.emit('messages.upsert', { messages: [message], type: 'append' });
      });
    }
    const answerDelayMs = this.#network.options.answerDelayMs ?? 0;
    if (answerDelayMs > 0) {
      await new Promise<void>((answer) => this.#network.clock.schedule(answerDelayMs, answer));
    }
    return message;
  }

  #scheduleReceipts(jid: string, key: WAMessageKey): void {
    const delay = this.#network.options.receiptDelayMs ?? 10;
    const group = this.#network.group(jid);
    const recipients = group
      ? group.participants
          .map((member) => member.id)
          .filter((id) => !id.startsWith(`${this.owner}@`) && !id.startsWith(`${this.owner}:`))
      : [jid];
    const Status = proto.WebMessageInfo.Status;
    const at = () => seconds(this.#network.clock);
    const later = (step: number, emit: () => void) =>
      this.#network.clock.schedule(delay * step, () => {
        if (!this.ended) emit();
      });
    // The owner's phone gets its copy and answers with a `sender` receipt: status SERVER_ACK.
    // (WhatsApp's server ack of the message itself is not reported by Baileys unless negative.)
    if (!group) {
      later(1, () =>
        this.emit('messages.update', [
          { key: { ...key }, update: { status: Status.SERVER_ACK, messageTimestamp: at() } },
        ]),
      );
    }
    for (const recipient of recipients) {
      const user = this.#network.user(`+${recipient.split('@')[0]}`);
      const behaviour = user?.behaviour ?? (user ? 'read' : 'none');
      if (behaviour === 'none') continue;
      if (behaviour === 'fail') {
        // A negative ack of the server: status ERROR, WhatsApp's code in the stub parameters.
        later(1, () =>
          this.emit('messages.update', [
            {
              key: { remoteJid: jid, fromMe: true, id: key.id ?? null },
              update: {
                status: Status.ERROR,
                messageStubParameters: [user?.failCode ?? '463'],
              },
            },
          ]),
        );
        continue;
      }
      const steps =
        behaviour === 'delivered' ? [Status.DELIVERY_ACK] : [Status.DELIVERY_ACK, Status.READ];
      steps.forEach((status, index) => {
        later(index + 2, () => {
          if (group) {
            this.emit('message-receipt.update', [
              {
                key: { ...key, participant: recipient },
                receipt: {
                  userJid: jidNormalizedUser(recipient),
                  ...(status === Status.READ
                    ? { readTimestamp: at() }
                    : { receiptTimestamp: at() }),
                },
              },
            ]);
          } else {
            this.emit('messages.update', [
              { key: { ...key }, update: { status, messageTimestamp: at() } },
            ]);
          }
        });
      });
    }
  }

  async presenceSubscribe(toJid: string): Promise<void> {
    this.#requireOpen();
    this.#network.presenceSubscriptions.push(toJid);
  }

  async sendPresenceUpdate(
    type: Parameters<BaileysSocket['sendPresenceUpdate']>[0],
    toJid?: string,
  ): Promise<void> {
    this.#requireOpen();
    const seen = toJid !== undefined && this.#network.presenceSubscriptions.includes(toJid);
    (seen ? this.#network.presences : this.#network.unseenPresences).push([toJid ?? '', type]);
  }

  async readMessages(_keys: WAMessageKey[]): Promise<void> {
    this.#requireOpen();
  }

  async onWhatsApp(
    ...phoneNumbers: string[]
  ): Promise<{ jid: string; exists: boolean }[] | undefined> {
    this.#requireOpen();
    // Baileys skips `@lid` JIDs (with a warning), and keeps only the numbers on WhatsApp.
    const phones = phoneNumbers.filter((number) => !isLidUser(number));
    if (phones.length === 0) return [];
    return phones.flatMap((number) => {
      const phone = number.replace('+', '').split('@')[0]?.split(':')[0] ?? '';
      return this.#network.user(`+${phone}`)
        ? [{ jid: `${phone}@${USER_SERVER}`, exists: true }]
        : [];
    });
  }

  async groupCreate(subject: string, participants: string[]): Promise<GroupMetadata> {
    this.#requireOpen();
    this.#network.refusal('groupCreate');
    const ownJid = `${this.owner}@${USER_SERVER}`;
    // A PN-addressed group: members by phone JID, their `lid` beside (never `phoneNumber`).
    const members: GroupParticipant[] = [
      this.#member(ownJid, 'superadmin'),
      ...participants.map((id) => this.#member(id, null)),
    ];
    const metadata: GroupMetadata = {
      id: `120363${randomBytes(6).readUIntBE(0, 6)}@g.us`,
      subject,
      owner: ownJid,
      addressingMode: WAMessageAddressingMode.PN,
      creation: seconds(this.#network.clock),
      participants: members,
    };
    this.#network.putGroup(metadata);
    return structuredClone(metadata);
  }

  #member(jid: string, admin: 'admin' | 'superadmin' | null): GroupParticipant {
    const lid = this.#network.user(`+${jid.split('@')[0]}`)?.lid;
    return { id: jid, ...(lid ? { lid } : {}), admin };
  }

  async groupMetadata(jid: string): Promise<GroupMetadata> {
    this.#requireOpen();
    this.#network.groupQueries.push(jid);
    const metadata = this.#network.group(jid);
    if (!metadata) throw iqError(404, 'item-not-found');
    return structuredClone(metadata);
  }

  async groupUpdateSubject(jid: string, subject: string): Promise<void> {
    const metadata = await this.#ownGroup(jid);
    this.#network.refusal('groupUpdateSubject');
    metadata.subject = subject;
  }

  async groupParticipantsUpdate(
    jid: string,
    participants: string[],
    action: Parameters<BaileysSocket['groupParticipantsUpdate']>[2],
  ): ReturnType<BaileysSocket['groupParticipantsUpdate']> {
    const metadata = await this.#ownGroup(jid);
    return participants.map((participant) => {
      const known = this.#network.user(`+${participant.split('@')[0]}`);
      if (action === 'add' && !known)
        return { status: '403', jid: participant, content: { tag: 'participant', attrs: {} } };
      if (action === 'add') metadata.participants.push(this.#member(participant, null));
      if (action === 'remove')
        metadata.participants = metadata.participants.filter((member) => member.id !== participant);
      return { status: '200', jid: participant, content: { tag: 'participant', attrs: {} } };
    });
  }

  async groupLeave(id: string): Promise<void> {
    const metadata = await this.#ownGroup(id);
    this.#network.refusal('groupLeave');
    metadata.participants = metadata.participants.filter(
      (member) => !member.id.startsWith(`${this.owner}@`),
    );
  }

  async updateMediaMessage(message: WAMessage): Promise<WAMessage> {
    return message;
  }

  async #ownGroup(jid: string): Promise<GroupMetadata> {
    this.#requireOpen();
    const metadata = this.#network.group(jid);
    if (!metadata) throw iqError(404, 'item-not-found');
    return metadata;
  }

  #requireLive(): void {
    if (this.ended)
      throw new Boom('Connection Closed', { statusCode: DisconnectReason.connectionClosed });
  }

  #requireOpen(): void {
    this.#requireLive();
    if (!this.user)
      throw new Boom('Connection Closed', { statusCode: DisconnectReason.connectionClosed });
  }
}
