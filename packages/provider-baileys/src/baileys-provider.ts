import { createHash } from 'node:crypto';
import type { Channel } from '@switchboard/contract';
import type {
  MessagingProvider,
  ProviderAvailability,
  ProviderAvailabilityRequest,
  ProviderCapabilities,
  ProviderChat,
  ProviderChatRequest,
  ProviderCreateGroupRequest,
  ProviderDestination,
  ProviderHealth,
  ProviderHealthWarning,
  ProviderLogger,
  ProviderParticipant,
  ProviderParticipantRequest,
  ProviderReactRequest,
  ProviderRenameGroupRequest,
  ProviderSendRequest,
  ProviderSendResult,
  ProviderStartContext,
  ProviderTypingRequest,
} from '@switchboard/provider-kit';
import {
  healthWarning,
  OrderedEventDelivery,
  ProviderError,
  SinkUnavailableError,
} from '@switchboard/provider-kit';
import type { GroupMetadata, GroupParticipant, WAMessage, WAMessageKey } from 'baileys';
import { outboundParts, reactionEmoji } from './baileys-outbound';
import { BaileysSessions } from './baileys-sessions';
import type { BaileysSocket } from './baileys-socket';
import { isGroupJid, isLidJid, jidOfAddress, jidToPhone, phoneToJid } from './jids';
import type { MessageMemory } from './message-memory';
import { proxyLabel, proxyProblem } from './proxy-agent';
import { providerErrorOf, upstreamCodeOf } from './whatsapp-errors';
import type { SessionSettings } from './whatsapp-socket-session';

/** The adapter name. */
export const BAILEYS_PROVIDER = 'baileys';
/** The channels the adapter serves. */
export const BAILEYS_CHANNELS: readonly Channel[] = ['whatsapp'];

/** Everything a Baileys instance is made of. */
export interface BaileysProviderOptions {
  /** The instance's friendly name. */
  instanceName: string;
  /** Session settings: sockets, versions, timings. */
  settings: SessionSettings;
}

/** A failure of a Baileys call other than a send, as a provider error. */
function upstreamError(error: unknown, action: string): ProviderError {
  return providerErrorOf(error, action, 'operation');
}

/**
 * The WhatsApp message id of one part of a send attempt: WhatsApp Web's `3EB0` form, from a hash
 * of the attempt id, so the same attempt always sends the same ids.
 */
function attemptMessageId(attemptId: string, part: number): string {
  const hash = createHash('sha256').update(`${attemptId}:${part}`).digest('hex');
  return `3EB0${hash.slice(0, 18).toUpperCase()}`;
}

function participantOf(member: GroupParticipant): ProviderParticipant {
  const phone = member.phoneNumber ?? (isLidJid(member.id) ? undefined : member.id);
  return {
    handle: phone ?? member.id,
    isPhoneResolved: phone !== undefined && jidToPhone(phone) !== undefined,
    admin: member.admin ?? null,
  };
}

function chatOf(metadata: GroupMetadata, ownJid: string | undefined): ProviderChat {
  return {
    chatId: metadata.id,
    channel: 'whatsapp',
    isGroup: true,
    name: metadata.subject,
    participants: metadata.participants
      .filter((member) => !ownJid || (member.phoneNumber ?? member.id) !== ownJid)
      .map(participantOf),
  };
}

function chatJidOf(to: ProviderDestination): string {
  return to.type === 'chat' ? to.chatId : jidOfAddress(to.address);
}

/**
 * WhatsApp through Baileys (linked devices): one socket per owned number, paired by QR or
 * pairing code, with the auth state in the gateway's encrypted state store. Sends text with
 * mentions and quotes, media with captions and voice notes, reactions, presence and groups;
 * reports messages, receipts, reactions, edits, revokes, presence, group changes and `@lid`
 * resolutions. It has no edits, unsends or read state (the spec has them on iMessage only): the
 * gateway answers `CHANNEL_NOT_SUPPORTED` for them.
 */
export class BaileysProvider implements MessagingProvider {
  readonly provider = BAILEYS_PROVIDER;
  readonly channels = BAILEYS_CHANNELS;
  readonly instanceName: string;
  readonly whatsappSessions: BaileysSessions;
  /** Reactions, presence (typing), chat lookups and groups, on whatsapp. */
  readonly capabilities: ProviderCapabilities = {
    reactions: { channels: BAILEYS_CHANNELS, react: (request) => this.react(request) },
    typing: { channels: BAILEYS_CHANNELS, typing: (request) => this.typing(request) },
    chats: { channels: BAILEYS_CHANNELS, getChat: (request) => this.getChat(request) },
    groups: {
      channels: BAILEYS_CHANNELS,
      createGroup: (request) => this.createGroup(request),
      renameGroup: (request) => this.renameGroup(request),
      addParticipant: (request) => this.addParticipant(request),
      removeParticipant: (request) => this.removeParticipant(request),
      leaveGroup: (request) => this.leaveGroup(request),
    },
  };
  readonly #settings: SessionSettings;
  #delivery: OrderedEventDelivery | undefined;

  /** An instance; nothing connects until `start`. */
  constructor(options: BaileysProviderOptions) {
    this.instanceName = options.instanceName;
    this.#settings = options.settings;
    this.whatsappSessions = new BaileysSessions(options.settings);
  }

  async start(context: ProviderStartContext): Promise<void> {
    this.#delivery = new OrderedEventDelivery(context.sink, context.logger, {
      attempts: 5,
      retryDelaysMs: [250, 1000, 5000],
      retryIf: (error) => error instanceof SinkUnavailableError,
      rememberIds: 2000,
    });
    this.whatsappSessions.attach({
      state: context.state,
      leases: context.leases,
      delivery: this.#delivery,
      logger: context.logger,
    });
  }

  async stop(): Promise<void> {
    await this.whatsappSessions.stopAll();
    this.#delivery?.close();
  }

  sendsElsewhere(from: string): boolean {
    return this.whatsappSessions.heldElsewhere(from);
  }

  async send(request: ProviderSendRequest): Promise<ProviderSendResult> {
    if (request.channel !== 'whatsapp') {
      throw ProviderError.channelNotSupported(request.channel, 'Sending');
    }
    const session = this.whatsappSessions.sessionOf(request.from);
    const done = await session.memory.recallSend<ProviderSendResult>(request.attemptId);
    if (done) return done;
    const socket = session.connectedSocket();
    const jid = chatJidOf(request.to);
    if (isGroupJid(jid) && !session.groups.get(jid)) {
      // Fetched once and cached for Baileys (`cachedGroupMetadata`), which otherwise queries the
      // group's metadata before every send to it.
      session.groups.put(
        await socket.groupMetadata(jid).catch((error: unknown) => {
          throw upstreamError(error, 'answer the group metadata');
        }),
      );
    }
    const reply = request.replyTo;
    const quoted = reply
      ? await this.#quoted(reply.externalId, reply.conversation, reply.fromMe, session.memory)
      : undefined;
    const parts = outboundParts(request);
    const sent: { id: string; kind: 'text' | 'attachment' }[] = [];
    for (const [index, part] of parts.entries()) {
      let message: WAMessage | undefined;
      try {
        // The id is derived from the attempt: a send re-driven after a crash reuses it, and
        // WhatsApp's devices show one message per id.
        const messageId = attemptMessageId(request.attemptId, index);
        session.noteSend(messageId, request.attemptId);
        message = await socket.sendMessage(jid, part.content, {
          messageId,
          ...(index === 0 && quoted ? { quoted } : {}),
        });
      } catch (error) {
        if (sent.length === 0) throw providerErrorOf(error, 'take the message', 'send');
        // Parts already sent cannot be taken back: the rest is reported failed by its status.
        this.#logger().warn(
          { err: error, messageId: request.messageId },
          'a part of a send failed',
        );
        break;
      }
      const id = message?.key.id;
      if (!message || !id) throw upstreamError(new Error('no message key'), 'take the message');
      await session.memory.remember(message);
      sent.push({ id, kind: part.kind });
    }
    const first = sent.find((part) => part.kind === 'text') ?? sent[0];
    if (!first) throw upstreamError(new Error('nothing to send'), 'take the message');
    // sendMessage resolves once the server took the message: that is `sent`.
    for (const part of sent) {
      this.#delivery?.fire({
        kind: 'message.status',
        channel: 'whatsapp',
        occurredAt: new Date(this.#settings.clock.now()),
        externalId: part.id,
        status: 'sent',
        attemptId: request.attemptId,
        upstreamEventId: `status:${part.id}:sent`,
      });
    }
    const result: ProviderSendResult = {
      externalId: first.id,
      chatId: jid,
      ...(sent.length > 1
        ? { parts: sent.map((part) => ({ externalId: part.id, kind: part.kind })) }
        : {}),
    };
    await session.memory.rememberSend(request.attemptId, result);
    return result;
  }

  async react(request: ProviderReactRequest): Promise<void> {
    const session = this.whatsappSessions.sessionOf(request.from);
    const socket = session.connectedSocket();
    const jid = chatJidOf(request.message.conversation);
    // A reaction names the original message's key as WhatsApp sent it: in a group, its
    // `participant` (an `@lid` in a LID-addressed group, whatever number the gateway shows).
    const kept = (await session.memory.recall(request.message.externalId))?.key;
    const participant =
      kept?.participant ??
      (request.message.author ? jidOfAddress(request.message.author) : undefined);
    const key: WAMessageKey = {
      remoteJid: kept?.remoteJid ?? jid,
      id: request.message.externalId,
      fromMe: request.message.fromMe,
      ...(isGroupJid(jid) && participant && !request.message.fromMe ? { participant } : {}),
    };
    const text = request.remove ? '' : reactionEmoji(request.reaction);
    await socket.sendMessage(jid, { react: { text, key } }).catch((error: unknown) => {
      throw upstreamError(error, 'take the reaction');
    });
  }

  async typing(request: ProviderTypingRequest): Promise<void> {
    const socket = this.whatsappSessions.sessionOf(request.from).connectedSocket();
    const jid = chatJidOf(request.to);
    // WhatsApp Web subscribes to a chat's presence before sending it a chat state; a chat state
    // to a chat never subscribed to is not shown (decision 0443).
    await socket
      .presenceSubscribe(jid)
      .then(() =>
        socket.sendPresenceUpdate(request.status === 'start' ? 'composing' : 'paused', jid),
      )
      .catch((error: unknown) => {
        throw upstreamError(error, 'take the presence');
      });
  }

  async createGroup(request: ProviderCreateGroupRequest): Promise<ProviderChat> {
    const name = request.name?.trim();
    if (!name) throw new ProviderError('NAME_REQUIRED', 'A WhatsApp group needs a name');
    if (request.participants.length === 0) {
      throw new ProviderError('VALIDATION_ERROR', 'A group needs at least one participant');
    }
    const session = this.whatsappSessions.sessionOf(request.from);
    const socket = session.connectedSocket();
    const metadata = await socket
      .groupCreate(name, request.participants.map(jidOfAddress))
      .catch((error: unknown) => {
        throw upstreamError(error, 'create the group');
      });
    session.groups.put(metadata);
    return chatOf(metadata, phoneToJid(request.from));
  }

  async getChat(request: ProviderChatRequest): Promise<ProviderChat | null> {
    if (!isGroupJid(request.chatId)) {
      return {
        chatId: request.chatId,
        channel: 'whatsapp',
        isGroup: false,
        participants: [
          {
            handle: request.chatId,
            isPhoneResolved: jidToPhone(request.chatId) !== undefined,
            admin: null,
          },
        ],
      };
    }
    const session = this.whatsappSessions.sessionOf(request.from);
    const socket = session.connectedSocket();
    try {
      const metadata = await socket.groupMetadata(request.chatId);
      session.groups.put(metadata);
      return chatOf(metadata, phoneToJid(request.from));
    } catch (error) {
      // WhatsApp's code rides in the Boom's `data` (Baileys leaves its statusCode at 500).
      const status = upstreamCodeOf(error);
      if (status === 404 || status === 403) return null;
      throw upstreamError(error, 'answer the group metadata');
    }
  }

  async renameGroup(request: ProviderRenameGroupRequest): Promise<void> {
    const socket = this.#groupSocket(request);
    await socket.groupUpdateSubject(request.chatId, request.name).catch((error: unknown) => {
      throw upstreamError(error, 'rename the group');
    });
  }

  async addParticipant(request: ProviderParticipantRequest): Promise<ProviderParticipant> {
    const jid = jidOfAddress(request.participant);
    await this.#participants(request, jid, 'add');
    return { handle: jid, isPhoneResolved: jidToPhone(jid) !== undefined, admin: null };
  }

  async removeParticipant(request: ProviderParticipantRequest): Promise<void> {
    await this.#participants(request, jidOfAddress(request.participant), 'remove');
  }

  async leaveGroup(request: ProviderChatRequest): Promise<void> {
    const socket = this.#groupSocket(request);
    await socket.groupLeave(request.chatId).catch((error: unknown) => {
      throw upstreamError(error, 'leave the group');
    });
  }

  async checkAvailability(request: ProviderAvailabilityRequest): Promise<ProviderAvailability> {
    const checkedAt = this.#settings.clock.now();
    const session = this.whatsappSessions.connectedSession(request.from);
    if (!session) return { address: request.address, channels: {}, checkedAt, transient: true };
    const lookup = await this.whatsappSessions.isOnWhatsApp(session.phoneNumber, request.address);
    return { address: request.address, channels: { whatsapp: lookup.exists }, checkedAt };
  }

  async health(): Promise<ProviderHealth> {
    const down = this.whatsappSessions.disconnectedNumbers();
    const warnings: ProviderHealthWarning[] = [];
    const proxy = this.#settings.proxy?.settings;
    const problem = proxy ? await proxyProblem(proxy) : undefined;
    if (proxy && problem) {
      warnings.push({
        ...healthWarning('upstream_unreachable'),
        message: `The proxy ${proxyLabel(proxy)} does not answer (${problem}): the WhatsApp sockets go out through it`,
      });
    }
    if (down.length > 0) {
      warnings.push({
        ...healthWarning('whatsapp_session_disconnected'),
        message: `WhatsApp sessions not connected: ${down.join(', ')}`,
      });
    }
    return {
      status: warnings.length === 0 ? 'healthy' : 'degraded',
      warnings,
      checkedAt: this.#settings.clock.now(),
    };
  }

  #groupSocket(request: ProviderChatRequest): BaileysSocket {
    if (!isGroupJid(request.chatId)) {
      throw new ProviderError('VALIDATION_ERROR', `${request.chatId} is not a WhatsApp group`);
    }
    return this.whatsappSessions.sessionOf(request.from).connectedSocket();
  }

  async #participants(
    request: ProviderParticipantRequest,
    jid: string,
    action: 'add' | 'remove',
  ): Promise<void> {
    const socket = this.#groupSocket(request);
    const results = await socket
      .groupParticipantsUpdate(request.chatId, [jid], action)
      .catch((error: unknown) => {
        throw upstreamError(error, `${action} the participant`);
      });
    this.whatsappSessions.sessionOf(request.from).groups.drop(request.chatId);
    const status = results[0]?.status;
    // 409: already a member (add) — the wanted state holds.
    if (status !== '200' && !(status === '409' && action === 'add')) {
      // 403: the person's privacy settings refuse being added; 408: they left recently.
      throw new ProviderError(
        status === '404' ? 'NOT_FOUND' : 'INVALID_STATUS',
        `WhatsApp refused to ${action} ${request.participant} (status ${status ?? 'none'})`,
        { channel: 'whatsapp', ...(status ? { providerCode: status } : {}) },
      );
    }
  }

  async #quoted(
    externalId: string,
    conversation: ProviderDestination,
    fromMe: boolean,
    memory: MessageMemory,
  ): Promise<WAMessage> {
    const kept = await memory.recall(externalId);
    if (kept) return kept;
    // Not kept (older than the TTL): quote by key alone, which WhatsApp shows without preview.
    return {
      key: { remoteJid: chatJidOf(conversation), id: externalId, fromMe },
      message: { conversation: '' },
    };
  }

  #logger(): ProviderLogger {
    return this.whatsappSessions.logger();
  }
}
