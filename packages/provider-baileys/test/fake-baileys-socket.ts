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
  DisconnectReason,
  type GroupMetadata,
  type GroupParticipant,
  makeEventBuffer,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
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

function seconds(clock: TimerClock): number {
  return Math.floor(clock.now() / 1000);
}

/** The proto message Baileys would build for a piece of content (the parts the gateway reads). */
function protoOf(content: AnyMessageContent): proto.IMessage {
  const c = content as Record<string, unknown>;
  const contextInfo =
    Array.isArray(c.mentions) && c.mentions.length > 0
      ? { mentionedJid: c.mentions as string[] }
      : null;
  if (typeof c.text === 'string') {
    return contextInfo
      ? { extendedTextMessage: { text: c.text, contextInfo } }
      : { conversation: c.text };
  }
  if (c.react) {
    const react = c.react as { text: string; key: WAMessageKey };
    return { reactionMessage: { text: react.text, key: react.key, senderTimestampMs: Date.now() } };
  }
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
  /** Presence updates sent, as `[jid, presence]`. */
  readonly presences: [string, string][] = [];
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
    const socket = this.socketOf(to);
    const message = this.#inbound(input);
    if (input.media && message.key.id) this.#media.set(message.key.id, input.media.data);
    socket.emit('messages.upsert', { messages: [message], type: 'notify' });
    return message;
  }

  /** Old messages arrive after linking: `messages.upsert` of type append. */
  async history(to: string, inputs: readonly FakeInboundMessage[]): Promise<void> {
    const messages = inputs.map((input) => this.#inbound(input));
    this.socketOf(to).emit('messages.upsert', { messages, type: 'append' });
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

  /** WhatsApp tells which phone number a `@lid` belongs to (`lid-mapping.update`). */
  async resolveLid(to: string, phoneNumber: string): Promise<void> {
    const user = this.user(phoneNumber);
    if (!user) throw new Error(`${phoneNumber} is not a fake user`);
    this.socketOf(to).emit('lid-mapping.update', {
      lid: user.lid,
      pn: `${digits(phoneNumber)}@${USER_SERVER}`,
    });
  }

  /** A contact starts or stops typing. */
  async presence(to: string, from: string, state: 'composing' | 'paused'): Promise<void> {
    const jid = `${digits(from)}@${USER_SERVER}`;
    this.socketOf(to).emit('presence.update', {
      id: jid,
      presences: { [jid]: { lastKnownPresence: state } },
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
    this.socketOf(to).emit('group-participants.update', {
      id: groupId,
      author: `${digits(author)}@${USER_SERVER}`,
      participants: members.map((member) => {
        const lid = this.user(member)?.lid;
        if (byLid && lid) return { id: lid };
        const jid = `${digits(member)}@${USER_SERVER}`;
        return { id: jid, phoneNumber: jid };
      }),
      action,
    });
  }

  /** Someone renames a group. */
  async groupSubject(to: string, groupId: string, author: string, subject: string): Promise<void> {
    this.socketOf(to).emit('groups.update', [
      {
        id: groupId,
        subject,
        subjectOwner: `${digits(author)}@${USER_SERVER}`,
        subjectTime: seconds(this.clock),
      },
    ]);
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
    if (input.media) {
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
      message,
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
    this.emit('creds.update', { pairingCode: code, me: this.#config.auth.creds.me });
    return code;
  }

  async sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: { quoted?: WAMessage; messageId?: string },
  ): Promise<WAMessage | undefined> {
    this.#requireOpen();
    const message: WAMessage = {
      key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? newMessageId() },
      message: protoOf(content),
      messageTimestamp: seconds(this.#network.clock),
      status: proto.WebMessageInfo.Status.PENDING,
    };
    this.sent.push({
      jid,
      content,
      message,
      ...(options?.quoted ? { quoted: options.quoted } : {}),
    });
    if (!('react' in content)) this.#scheduleReceipts(jid, message.key);
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
    for (const recipient of recipients) {
      const behaviour =
        this.#network.user(`+${recipient.split('@')[0]}`)?.behaviour ??
        (this.#network.user(`+${recipient.split('@')[0]}`) ? 'read' : 'none');
      if (behaviour === 'none') continue;
      const steps =
        behaviour === 'fail'
          ? [proto.WebMessageInfo.Status.ERROR]
          : behaviour === 'delivered'
            ? [proto.WebMessageInfo.Status.DELIVERY_ACK]
            : [proto.WebMessageInfo.Status.DELIVERY_ACK, proto.WebMessageInfo.Status.READ];
      // The server's ack (2) comes first, for direct chats, as Baileys reports it.
      if (!group && behaviour !== 'fail') steps.unshift(proto.WebMessageInfo.Status.SERVER_ACK);
      steps.forEach((status, index) => {
        const emit = () => {
          if (this.ended) return;
          if (group) {
            const at = seconds(this.#network.clock);
            this.emit('message-receipt.update', [
              {
                key,
                receipt: {
                  userJid: recipient,
                  ...(status === proto.WebMessageInfo.Status.READ
                    ? { readTimestamp: at }
                    : { receiptTimestamp: at }),
                },
              },
            ]);
          } else {
            this.emit('messages.update', [{ key, update: { status } }]);
          }
        };
        this.#network.clock.schedule(delay * (index + 1), emit);
      });
    }
  }

  async sendPresenceUpdate(
    type: Parameters<BaileysSocket['sendPresenceUpdate']>[0],
    toJid?: string,
  ): Promise<void> {
    this.#requireOpen();
    this.#network.presences.push([toJid ?? '', type]);
  }

  async readMessages(_keys: WAMessageKey[]): Promise<void> {
    this.#requireOpen();
  }

  async onWhatsApp(
    ...phoneNumbers: string[]
  ): Promise<{ jid: string; exists: boolean }[] | undefined> {
    this.#requireOpen();
    return phoneNumbers.map((number) => {
      const user = this.#network.user(number);
      return { jid: `${digits(number)}@${USER_SERVER}`, exists: user !== undefined };
    });
  }

  async groupCreate(subject: string, participants: string[]): Promise<GroupMetadata> {
    this.#requireOpen();
    const ownJid = `${this.owner}@${USER_SERVER}`;
    const members: GroupParticipant[] = [
      { id: ownJid, phoneNumber: ownJid, admin: 'superadmin' },
      ...participants.map((id): GroupParticipant => ({ id, phoneNumber: id, admin: null })),
    ];
    const metadata: GroupMetadata = {
      id: `120363${randomBytes(6).readUIntBE(0, 6)}@g.us`,
      subject,
      owner: ownJid,
      creation: seconds(this.#network.clock),
      participants: members,
    };
    this.#network.putGroup(metadata);
    return structuredClone(metadata);
  }

  async groupMetadata(jid: string): Promise<GroupMetadata> {
    this.#requireOpen();
    const metadata = this.#network.group(jid);
    if (!metadata) throw new Boom('item-not-found', { statusCode: 404 });
    return structuredClone(metadata);
  }

  async groupUpdateSubject(jid: string, subject: string): Promise<void> {
    const metadata = await this.#ownGroup(jid);
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
      if (action === 'add')
        metadata.participants.push({ id: participant, phoneNumber: participant, admin: null });
      if (action === 'remove')
        metadata.participants = metadata.participants.filter((member) => member.id !== participant);
      return { status: '200', jid: participant, content: { tag: 'participant', attrs: {} } };
    });
  }

  async groupLeave(id: string): Promise<void> {
    const metadata = await this.#ownGroup(id);
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
    if (!metadata) throw new Boom('item-not-found', { statusCode: 404 });
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
