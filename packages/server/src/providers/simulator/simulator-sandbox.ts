import { type Channel, isE164 } from '@switchboard/contract';
import type {
  FaceTimeCallStatus,
  ProviderDeliveryStatus,
  ProviderHealth,
  ProviderHealthStatus,
  ProviderHealthWarning,
  ProviderInboundAttachment,
  WhatsAppDisconnectReason,
  WhatsAppSessionSnapshot,
} from '@switchboard/provider-kit';
import {
  ProviderError,
  type ProviderFailure,
  type ProviderReaction,
  TAPBACK_VERBS,
} from '@switchboard/provider-kit';
import { isGroupChatId, isLid, phoneToJid } from './simulated-addresses';
import { newAttachmentGuid, newCallUuid, newExternalId } from './simulated-ids';
import type { SimulatorChats } from './simulator-chats';
import type { SimulatorContext } from './simulator-context';
import type { SimulatorMessages } from './simulator-messages';
import type { SimulatorWhatsAppSessions } from './simulator-whatsapp-sessions';

/** A file a simulated contact sends: bytes, or a URL the gateway fetches. */
export interface SandboxAttachment {
  /** The content. */
  content: { kind: 'bytes'; data: Uint8Array } | { kind: 'url'; url: string };
  /** MIME type. */
  mimeType: string;
  /** File name, when the sender gives one. */
  filename?: string;
}

/** A message a simulated contact sends to an instance address. */
export interface SandboxInboundMessage {
  /** The channel it arrives on. */
  channel: Channel;
  /** The contact. */
  from: string;
  /** The instance address receiving it. */
  to: string;
  /** Text (may hold a verification code). */
  text?: string;
  /** Files. */
  attachments?: readonly SandboxAttachment[];
  /** The chat it arrives in: a group, or a direct chat id; omitted for a plain direct message. */
  chatId?: string;
  /** The provider id of the message it replies to. */
  replyToExternalId?: string;
  /** The contact's display name. */
  senderName?: string;
}

/** A contact reacting to a message. */
export interface SandboxReaction {
  /** The channel. */
  channel: Channel;
  /** The contact. */
  from: string;
  /** The instance address. */
  to: string;
  /** The provider id of the message reacted to. */
  targetExternalId: string;
  /** The reaction. */
  reaction: ProviderReaction;
  /** True when the contact takes the reaction back. */
  remove?: boolean;
  /** The group, when in one. */
  chatId?: string;
}

/** A contact typing. */
export interface SandboxTyping {
  /** The channel (imessage or whatsapp). */
  channel: Channel;
  /** The contact. */
  from: string;
  /** The instance address. */
  to: string;
  /** `start` or `stop`. */
  status: 'start' | 'stop';
  /** The group, when in one. */
  chatId?: string;
}

/** A status update for a message the simulator sent (a read receipt, a late carrier failure). */
export interface SandboxStatus {
  /** The message's channel. */
  channel: Channel;
  /** The provider id of the message. */
  externalId: string;
  /** The status to report. */
  status: ProviderDeliveryStatus;
  /** Why it failed, for `failed`; a generic delivery failure when omitted. */
  error?: ProviderFailure;
}

/** A change a contact makes to a group. */
export type SandboxGroupEvent = {
  /** The group's channel. */
  channel: 'imessage' | 'whatsapp';
  /** The group. */
  chatId: string;
  /** The contact making the change. */
  actor: string;
  /** The instance address in the group. */
  to: string;
} & (
  | { action: 'participant.added' | 'participant.left'; participant: string }
  | { action: 'title.changed'; title: string }
  | { action: 'photo.changed' }
);

/** FaceTime calls and their final states. */
const FINAL_CALL_STATES: ReadonlySet<FaceTimeCallStatus> = new Set([
  'disconnected',
  'missed',
  'rejected',
  'failed',
]);

interface FaceTimeCall {
  caller: string;
  to: string;
  isVideo: boolean;
  status: FaceTimeCallStatus;
}

/**
 * The sandbox: makes the simulated world act, each call emitting through the same sink as real
 * upstream events, and answering the provider ids it created. The sandbox API of the gateway is a
 * thin layer over these methods.
 */
export class SimulatorSandbox {
  readonly #context: SimulatorContext;
  readonly #channels: readonly Channel[];
  readonly #messages: SimulatorMessages;
  readonly #chats: SimulatorChats;
  readonly #sessions: SimulatorWhatsAppSessions;
  readonly #calls = new Map<string, FaceTimeCall>();
  #health: Omit<ProviderHealth, 'checkedAt'> | undefined;

  /** The sandbox of one simulator instance. */
  constructor(parts: {
    context: SimulatorContext;
    channels: readonly Channel[];
    messages: SimulatorMessages;
    chats: SimulatorChats;
    sessions: SimulatorWhatsAppSessions;
  }) {
    this.#context = parts.context;
    this.#channels = parts.channels;
    this.#messages = parts.messages;
    this.#chats = parts.chats;
    this.#sessions = parts.sessions;
  }

  /** A contact sends a message, with attachments given as bytes or as URLs. */
  async injectInbound(input: SandboxInboundMessage): Promise<{ externalId: string }> {
    this.#requireChannel(input.channel, 'inbound messages');
    const externalId = newExternalId(input.channel);
    const attachments = (input.attachments ?? []).map((attachment) =>
      toInboundAttachment(input.channel, attachment),
    );
    await this.#context.emit({
      kind: 'message.inbound',
      channel: input.channel,
      externalId,
      from: input.from,
      to: input.to,
      isGroup: input.chatId !== undefined && isGroupChatId(input.chatId),
      text: input.text ?? '',
      attachments,
      occurredAt: this.#context.occurredAt(),
      ...(input.chatId === undefined ? {} : { chatId: input.chatId }),
      ...(input.replyToExternalId === undefined
        ? {}
        : { replyToExternalId: input.replyToExternalId }),
      ...(input.senderName === undefined ? {} : { senderName: input.senderName }),
    });
    return { externalId };
  }

  /**
   * A contact reacts. On sms, which has no reactions, the reaction arrives as a text message the
   * way iPhones send it to SMS-only phones ("Loved “…”").
   */
  async injectReaction(input: SandboxReaction): Promise<{ externalId: string }> {
    this.#requireChannel(input.channel, 'reactions');
    const removed = input.remove ?? false;
    if (input.channel === 'sms') {
      return this.injectInbound({
        channel: 'sms',
        from: input.from,
        to: input.to,
        text: reactionAsText(
          input.reaction,
          removed,
          this.#messages.textOf(input.targetExternalId),
        ),
      });
    }
    const externalId = newExternalId(input.channel);
    await this.#context.emit({
      kind: 'message.reaction',
      channel: input.channel,
      externalId,
      from: input.from,
      to: input.to,
      targetExternalId: input.targetExternalId,
      reaction: input.reaction,
      removed,
      occurredAt: this.#context.occurredAt(),
      ...(input.chatId === undefined ? {} : { chatId: input.chatId }),
    });
    return { externalId };
  }

  /** A contact starts or stops typing (imessage, whatsapp). */
  async injectTyping(input: SandboxTyping): Promise<void> {
    this.#requireChannel(input.channel, 'typing indicators');
    if (input.channel === 'sms') throw ProviderError.channelNotSupported('sms', 'typing');
    await this.#context.emit({
      kind: 'typing',
      channel: input.channel,
      from: input.from,
      to: input.to,
      status: input.status,
      occurredAt: this.#context.occurredAt(),
      ...(input.chatId === undefined ? {} : { chatId: input.chatId }),
    });
  }

  /** Reports a status for a sent message now: a read receipt, a late carrier failure. */
  async injectStatus(input: SandboxStatus): Promise<void> {
    this.#requireChannel(input.channel, 'status updates');
    if (input.channel === 'sms' && input.status === 'read') {
      throw new ProviderError('CHANNEL_NOT_SUPPORTED', 'sms has no read receipts', {
        channel: 'sms',
      });
    }
    await this.#messages.reportStatus(input.channel, input.externalId, input.status, input.error);
  }

  /** The recipient read a message (a read receipt). */
  injectReadReceipt(input: { channel: Channel; externalId: string }): Promise<void> {
    return this.injectStatus({ ...input, status: 'read' });
  }

  /** A contact kept a voice message the instance sent (imessage). */
  async injectAudioKept(input: {
    from: string;
    to: string;
    targetExternalId: string;
  }): Promise<{ externalId: string }> {
    this.#requireChannel('imessage', 'audio kept');
    const externalId = newExternalId('imessage');
    await this.#context.emit({
      kind: 'message.audio_kept',
      channel: 'imessage',
      externalId,
      from: input.from,
      to: input.to,
      targetExternalId: input.targetExternalId,
      occurredAt: this.#context.occurredAt(),
    });
    return { externalId };
  }

  /** A contact changes a group: adds or removes a member, renames it, changes its photo. */
  async injectGroupEvent(input: SandboxGroupEvent): Promise<{ externalId: string }> {
    this.#requireChannel(input.channel, 'group events');
    const externalId = newExternalId(input.channel);
    const base = {
      kind: 'chat.event' as const,
      channel: input.channel,
      externalId,
      chatId: input.chatId,
      actor: input.actor,
      to: input.to,
      occurredAt: this.#context.occurredAt(),
    };
    const target = { channel: input.channel, from: input.to, chatId: input.chatId };
    switch (input.action) {
      case 'participant.added':
        this.#chats.add({ ...target, participant: input.participant });
        await this.#context.emit({ ...base, action: input.action, participant: input.participant });
        break;
      case 'participant.left':
        this.#chats.remove({ ...target, participant: input.participant });
        await this.#context.emit({ ...base, action: input.action, participant: input.participant });
        break;
      case 'title.changed':
        this.#chats.rename(input.chatId, input.title);
        await this.#context.emit({ ...base, action: input.action, title: input.title });
        break;
      case 'photo.changed':
        await this.#context.emit({ ...base, action: input.action });
        break;
    }
    return { externalId };
  }

  /** A contact calls an instance address on FaceTime. */
  async injectFaceTimeCall(input: {
    caller: string;
    to: string;
    isVideo?: boolean;
  }): Promise<{ callUuid: string }> {
    this.#requireChannel('imessage', 'FaceTime');
    const callUuid = newCallUuid();
    const call: FaceTimeCall = {
      caller: input.caller,
      to: input.to,
      isVideo: input.isVideo ?? true,
      status: 'incoming',
    };
    this.#calls.set(callUuid, call);
    await this.#context.emit({
      kind: 'facetime.incoming',
      channel: 'imessage',
      callUuid,
      caller: call.caller,
      to: call.to,
      isVideo: call.isVideo,
      occurredAt: this.#context.occurredAt(),
    });
    return { callUuid };
  }

  /** A FaceTime call started by {@link injectFaceTimeCall} changes state. */
  async injectFaceTimeStatus(input: {
    callUuid: string;
    status: FaceTimeCallStatus;
  }): Promise<void> {
    const call = this.#calls.get(input.callUuid);
    if (!call) throw new ProviderError('NOT_FOUND', `No simulated call ${input.callUuid}`);
    if (FINAL_CALL_STATES.has(call.status)) {
      throw new ProviderError('INVALID_STATUS', `The call already ended (${call.status})`);
    }
    call.status = input.status;
    await this.#context.emit({
      kind: 'facetime.status',
      channel: 'imessage',
      callUuid: input.callUuid,
      address: call.caller,
      to: call.to,
      status: input.status,
      isOutgoing: false,
      isVideo: call.isVideo,
      occurredAt: this.#context.occurredAt(),
    });
  }

  /** The phone scans the QR code of `phoneNumber`'s session. */
  scanWhatsAppQr(phoneNumber: string): Promise<WhatsAppSessionSnapshot> {
    this.#requireChannel('whatsapp', 'WhatsApp pairing');
    return this.#sessions.scanQr(phoneNumber);
  }

  /** Someone types the pairing code of `phoneNumber`'s session on the phone. */
  enterWhatsAppPairingCode(phoneNumber: string, code: string): Promise<WhatsAppSessionSnapshot> {
    this.#requireChannel('whatsapp', 'WhatsApp pairing');
    return this.#sessions.enterPairingCode(phoneNumber, code);
  }

  /** The live WhatsApp connection of `phoneNumber` drops; `logged_out` unlinks the device. */
  dropWhatsAppConnection(
    phoneNumber: string,
    reason: WhatsAppDisconnectReason = 'connection_lost',
  ): Promise<WhatsAppSessionSnapshot> {
    this.#requireChannel('whatsapp', 'WhatsApp sessions');
    return this.#sessions.dropConnection(phoneNumber, reason);
  }

  /** The session of `phoneNumber` learns that `lid` is the phone number `phone`. */
  async resolveLid(input: {
    phoneNumber: string;
    lid: string;
    phone: string;
  }): Promise<{ jid: string }> {
    this.#requireChannel('whatsapp', 'WhatsApp participants');
    if (!isLid(input.lid)) {
      throw new ProviderError('VALIDATION_ERROR', `${input.lid} is not an <id>@lid handle`);
    }
    if (!isE164(input.phone)) {
      throw new ProviderError('INVALID_PHONE_NUMBER', `${input.phone} is not an E.164 number`);
    }
    const jid = phoneToJid(input.phone);
    this.#chats.resolveLid(input.lid, jid);
    await this.#context.emit({
      kind: 'whatsapp.lid_resolved',
      channel: 'whatsapp',
      phoneNumber: input.phoneNumber,
      lid: input.lid,
      jid,
      occurredAt: this.#context.occurredAt(),
    });
    return { jid };
  }

  /** Makes health checks answer `status` with `warnings` (null: healthy again). */
  #upstreamDown: string | undefined;
  #availabilityDelayMs = 0;

  setHealth(
    health: { status: ProviderHealthStatus; warnings?: ProviderHealthWarning[] } | null,
  ): void {
    this.#health = health ? { status: health.status, warnings: health.warnings ?? [] } : undefined;
  }

  /**
   * Takes the simulated upstream down (`reason`: what its connection errors say) or back up
   * (`null`): while down, sends and reachability probes fail as an unreachable upstream's do
   * (retryable), and health checks answer `unhealthy`.
   */
  setUpstreamDown(reason: string | null): void {
    this.#upstreamDown = reason ?? undefined;
  }

  /** Makes every reachability probe take `ms` before it answers (a slow upstream). */
  setAvailabilityDelay(ms: number): void {
    this.#availabilityDelayMs = ms;
  }

  /** Rejects as an unreachable upstream does while it is down. */
  assertUpstreamUp(): void {
    if (this.#upstreamDown !== undefined) {
      throw new ProviderError('INTERNAL_ERROR', `upstream unreachable: ${this.#upstreamDown}`, {
        retryable: true,
      });
    }
  }

  /** Waits as long as reachability probes are set to take. */
  async availabilityDelay(): Promise<void> {
    if (this.#availabilityDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.#availabilityDelayMs));
    }
  }

  /** What health checks answer now. */
  health(): Omit<ProviderHealth, 'checkedAt'> {
    if (this.#upstreamDown !== undefined) {
      return {
        status: 'unhealthy',
        warnings: [
          { code: 'upstream_unreachable', message: `Upstream unreachable: ${this.#upstreamDown}` },
        ],
      };
    }
    return this.#health ?? { status: 'healthy', warnings: [] };
  }

  #requireChannel(channel: Channel, what: string): void {
    this.#context.assertStarted();
    if (!this.#channels.includes(channel)) {
      throw new ProviderError(
        'CHANNEL_NOT_SUPPORTED',
        `This simulator instance does not serve ${channel} (${what})`,
        { channel },
      );
    }
  }
}

function toInboundAttachment(
  channel: Channel,
  attachment: SandboxAttachment,
): ProviderInboundAttachment {
  const content = attachment.content;
  return {
    mimeType: attachment.mimeType,
    content,
    ...(channel === 'imessage' ? { providerId: newAttachmentGuid() } : {}),
    ...(attachment.filename === undefined ? {} : { filename: attachment.filename }),
    ...(content.kind === 'bytes' ? { totalBytes: content.data.byteLength } : {}),
  };
}

function reactionAsText(
  reaction: ProviderReaction,
  removed: boolean,
  targetText: string | undefined,
): string {
  const target = targetText === undefined ? 'a message' : `“${targetText}”`;
  if (removed) return `Removed a reaction from ${target}`;
  if (reaction.type === 'emoji') return `Reacted ${reaction.emoji} to ${target}`;
  return `${TAPBACK_VERBS[reaction.type]} ${target}`;
}
