import {
  EMAIL_PATTERN,
  type SandboxAudioKeptRequest,
  type SandboxAudioKeptResult,
  type SandboxChatEventRequest,
  type SandboxChatEventResult,
  type SandboxDropConnectionRequest,
  type SandboxFaceTimeCall,
  type SandboxFaceTimeCallRequest,
  type SandboxFaceTimeStatusRequest,
  type SandboxHealthRequest,
  type SandboxHealthResult,
  type SandboxInboundMessageRequest,
  type SandboxInboundMessageResult,
  type SandboxMessageStatusRequest,
  type SandboxMessageStatusResult,
  type SandboxReactionRequest,
  type SandboxReactionResult,
  type SandboxResolveLidRequest,
  type SandboxResolveLidResult,
  type SandboxTypingRequest,
  type SandboxTypingResult,
  type WhatsAppSession,
} from '@switchboard/contract';
import type { ProviderReaction } from '@switchboard/provider-kit';
import { healthWarning } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { OutboundUrlPolicy } from '../../egress/outbound-url';
import type { ProviderHub } from '../../providers/provider-hub';
import { SimulatorProvider } from '../../providers/simulator/simulator-provider';
import type {
  SandboxAttachment,
  SimulatorSandbox,
} from '../../providers/simulator/simulator-sandbox';
import type { MessageRecord } from '../../store/message-repository';
import type { SenderNumberView } from '../../store/number-repository';
import type { UnitOfWork } from '../../store/store';
import { mimeTypeFromName, OCTET_STREAM } from '../attachments/mime-types';
import { findChat } from '../chats/find-chat';
import { callProvider } from '../chats/provider-call';
import { DomainError } from '../domain-error';
import type { InboundMessageReceiver } from '../inbound/inbound-message-handler';
import { requireUrl } from '../safe-url';
import { toSessionView } from '../whatsapp/whatsapp-session-views';

/** Dependencies of {@link SandboxService}. */
export interface SandboxServiceDeps {
  /** The store. */
  store: UnitOfWork;
  /** The running providers. */
  hub: Pick<ProviderHub, 'provider'>;
  /** The inbound message side, to describe what a simulated message became. */
  inbound: InboundMessageReceiver;
  /** The time source (when a simulated health was set). */
  clock: Clock;
  /** The URL-safety policy attachment `url`s pass at the request (and again when fetched). */
  urlPolicy: Pick<OutboundUrlPolicy, 'require'>;
}

/** One of the customer's numbers, served by a simulator instance. */
interface SimulatedNumber {
  number: SenderNumberView;
  sandbox: SimulatorSandbox;
}

/**
 * The sandbox API: makes the simulated world act for the caller's own numbers served by the
 * simulator (any other number is 404 `NOT_FOUND`). Each action calls the simulator's sandbox,
 * whose events go through the gateway's real inbound path before the call returns, so the answer
 * can name what the gateway stored.
 */
export class SandboxService {
  readonly #deps: SandboxServiceDeps;

  /** Creates the service. */
  constructor(deps: SandboxServiceDeps) {
    this.#deps = deps;
  }

  /** A contact sends a message. */
  async inboundMessage(
    customerId: string,
    body: SandboxInboundMessageRequest,
  ): Promise<SandboxInboundMessageResult> {
    const { number, sandbox } = await this.#simulated(customerId, body.to);
    checkAddresses(body.channel, body.from, body.to);
    const attachments = body.attachments?.map((item, i) =>
      toSandboxAttachment(
        item.url === undefined
          ? item
          : { ...item, url: requireUrl(this.#deps.urlPolicy, item.url, `attachments[${i}].url`) },
      ),
    );
    const { externalId } = await callProvider(() =>
      sandbox.injectInbound({
        channel: body.channel,
        from: body.from,
        to: body.to,
        ...(body.text === undefined ? {} : { text: body.text }),
        ...(attachments === undefined ? {} : { attachments }),
        ...(body.chatId === undefined ? {} : { chatId: body.chatId }),
        ...(body.senderName === undefined ? {} : { senderName: body.senderName }),
      }),
    );
    const message = await this.#received(number, externalId);
    const outcome = await this.#deps.inbound.outcomeOf(message);
    return {
      messageId: message.id,
      externalId,
      conversationId: message.conversationId,
      attachments: outcome.attachments,
      suppressed: outcome.suppressed,
      otp: outcome.otp,
    };
  }

  /** A contact reacts to a message (on sms: the text an iPhone sends). */
  async reaction(customerId: string, body: SandboxReactionRequest): Promise<SandboxReactionResult> {
    const { number, sandbox } = await this.#simulated(customerId, body.to);
    checkAddresses(body.channel, body.from, body.to);
    const targetExternalId = await this.#targetExternalId(customerId, number, body);
    const reaction: ProviderReaction =
      body.type === 'emoji' ? { type: 'emoji', emoji: body.emoji ?? '' } : { type: body.type };
    const { externalId } = await callProvider(() =>
      sandbox.injectReaction({
        channel: body.channel,
        from: body.from,
        to: body.to,
        targetExternalId,
        reaction,
        ...(body.remove === undefined ? {} : { remove: body.remove }),
        ...(body.chatId === undefined ? {} : { chatId: body.chatId }),
      }),
    );
    const target = await this.#ownMessage(number, targetExternalId);
    if (body.channel === 'sms') {
      const text = await this.#ownMessage(number, externalId);
      return { externalId, targetMessageId: target?.id ?? null, messageId: text?.id ?? null };
    }
    return { externalId, targetMessageId: target?.id ?? null, messageId: null };
  }

  /** A contact starts or stops typing. */
  async typing(customerId: string, body: SandboxTypingRequest): Promise<SandboxTypingResult> {
    const { sandbox } = await this.#simulated(customerId, body.to);
    checkAddresses(body.channel, body.from, body.to);
    await callProvider(() =>
      sandbox.injectTyping({
        channel: body.channel,
        from: body.from,
        to: body.to,
        status: body.status,
        ...(body.chatId === undefined ? {} : { chatId: body.chatId }),
      }),
    );
    return { status: body.status, emitted: body.channel === 'whatsapp' };
  }

  /** The provider reports a status (a read receipt, a late failure) for a sent message. */
  async messageStatus(
    customerId: string,
    messageId: string,
    body: SandboxMessageStatusRequest,
  ): Promise<SandboxMessageStatusResult> {
    const message = await this.#deps.store.messages.findById(customerId, messageId);
    if (!message || message.deletedAt !== null || message.suppressed) {
      throw new DomainError('NOT_FOUND', `No message ${messageId} exists`);
    }
    if (message.direction !== 'outbound') {
      throw new DomainError(
        'VALIDATION_ERROR',
        `${messageId} is an inbound message: receipts are for sent messages`,
      );
    }
    const { externalId, channel } = message;
    if (externalId === null || channel === null) {
      throw new DomainError(
        'MISSING_EXTERNAL_ID',
        `${messageId} has not been handed to a provider yet (no provider id)`,
      );
    }
    const sandbox = await this.#sandboxOf(message.instanceId, `the instance of ${messageId}`);
    await callProvider(() => sandbox.injectStatus({ channel, externalId, status: body.status }));
    return { messageId, externalId, status: body.status };
  }

  /** A contact keeps a voice note the customer sent. */
  async audioKept(
    customerId: string,
    body: SandboxAudioKeptRequest,
  ): Promise<SandboxAudioKeptResult> {
    const { number, sandbox } = await this.#simulated(customerId, body.to);
    const targetExternalId = await this.#targetExternalId(customerId, number, body);
    const { externalId } = await callProvider(() =>
      sandbox.injectAudioKept({ from: body.from, to: body.to, targetExternalId }),
    );
    const target = await this.#ownMessage(number, targetExternalId);
    return { externalId, targetMessageId: target?.id ?? null };
  }

  /** A contact changes one of the customer's groups. */
  async chatEvent(
    customerId: string,
    chatId: string,
    body: SandboxChatEventRequest,
  ): Promise<SandboxChatEventResult> {
    const chat = await findChat(this.#deps.store, customerId, chatId);
    if (!chat.isGroup) {
      throw new DomainError('VALIDATION_ERROR', `${chat.chatId} is a 1:1 chat, not a group`);
    }
    const provider = await callProvider(() => this.#deps.hub.provider(chat.instanceId));
    if (!(provider instanceof SimulatorProvider)) {
      throw new DomainError(
        'CONVERSATION_NOT_FOUND',
        `${chat.chatId} is not served by the simulator; the sandbox only drives simulated chats`,
      );
    }
    const common = {
      channel: chat.channel,
      chatId: chat.chatId,
      actor: body.actor,
      to: chat.ownerAddress,
    };
    const { externalId } = await callProvider(() => {
      switch (body.action) {
        case 'participant.added':
        case 'participant.left':
          return provider.sandbox.injectGroupEvent({
            ...common,
            action: body.action,
            participant: body.participant ?? '',
          });
        case 'title.changed':
          return provider.sandbox.injectGroupEvent({
            ...common,
            action: body.action,
            title: body.title ?? '',
          });
        case 'photo.changed':
          return provider.sandbox.injectGroupEvent({ ...common, action: body.action });
      }
    });
    return { externalId, chatId: chat.chatId, conversationId: chat.id };
  }

  /** A contact calls on FaceTime. */
  async faceTimeCall(
    customerId: string,
    body: SandboxFaceTimeCallRequest,
  ): Promise<SandboxFaceTimeCall> {
    const { sandbox } = await this.#simulated(customerId, body.to);
    const { callUuid } = await callProvider(() =>
      sandbox.injectFaceTimeCall({ caller: body.caller, to: body.to, isVideo: body.video }),
    );
    return { callUuid, status: 'incoming' };
  }

  /** A simulated FaceTime call changes state. */
  async faceTimeStatus(
    customerId: string,
    callUuid: string,
    body: SandboxFaceTimeStatusRequest,
  ): Promise<SandboxFaceTimeCall> {
    const call = await this.#deps.store.faceTimeCalls.find(customerId, callUuid);
    if (!call) throw new DomainError('NOT_FOUND', `No FaceTime call ${callUuid} exists`);
    const sandbox = await this.#sandboxOf(call.instanceId, `the instance of call ${callUuid}`);
    await callProvider(() => sandbox.injectFaceTimeStatus({ callUuid, status: body.status }));
    return { callUuid, status: body.status };
  }

  /** The phone scans the number's QR code. */
  async whatsappScanQr(customerId: string, phoneNumber: string): Promise<WhatsAppSession> {
    const { number, sandbox } = await this.#simulated(customerId, phoneNumber);
    await callProvider(() => sandbox.scanWhatsAppQr(number.phoneNumber));
    return this.#session(number);
  }

  /** The phone enters the number's pairing code. */
  async whatsappEnterPairingCode(
    customerId: string,
    phoneNumber: string,
    code: string,
  ): Promise<WhatsAppSession> {
    const { number, sandbox } = await this.#simulated(customerId, phoneNumber);
    await callProvider(() => sandbox.enterWhatsAppPairingCode(number.phoneNumber, code));
    return this.#session(number);
  }

  /** The number's live WhatsApp connection drops. */
  async whatsappDropConnection(
    customerId: string,
    phoneNumber: string,
    body: SandboxDropConnectionRequest | undefined,
  ): Promise<WhatsAppSession> {
    const { number, sandbox } = await this.#simulated(customerId, phoneNumber);
    await callProvider(() =>
      sandbox.dropWhatsAppConnection(number.phoneNumber, body?.reason ?? 'connection_lost'),
    );
    return this.#session(number);
  }

  /** The number's session learns the phone number of an `@lid` member. */
  async whatsappResolveLid(
    customerId: string,
    phoneNumber: string,
    body: SandboxResolveLidRequest,
  ): Promise<SandboxResolveLidResult> {
    const { number, sandbox } = await this.#simulated(customerId, phoneNumber);
    const chats = await this.#deps.store.conversations.listWhatsAppOfInstance(
      customerId,
      number.instanceId,
    );
    const affected = chats
      .filter((chat) => chat.participants.some((member) => member.handle === body.lid))
      .map((chat) => chat.id);
    const { jid } = await callProvider(() =>
      sandbox.resolveLid({ phoneNumber: number.phoneNumber, lid: body.lid, phone: body.phone }),
    );
    return { lid: body.lid, jid, conversationIds: affected };
  }

  /**
   * The customer's number shows `body.status` (with its warnings) in `GET /v1/numbers` from now
   * on, `healthy` removing the override. Only the caller's view changes: the shared simulator
   * instance, other customers' numbers and the server's `/health` are untouched.
   */
  async setInstanceHealth(
    customerId: string,
    phoneNumber: string,
    body: SandboxHealthRequest,
  ): Promise<SandboxHealthResult> {
    const { number } = await this.#simulated(customerId, phoneNumber);
    const at = this.#deps.clock.now();
    const warnings = (body.warnings ?? []).map((code) => healthWarning(code).message);
    await this.#deps.store.numbers.setSandboxHealth(
      customerId,
      number.phoneNumber,
      body.status === 'healthy' ? null : { status: body.status, warnings, at },
    );
    return {
      instanceName: number.instanceName,
      status: body.status,
      warnings,
      checkedAt: new Date(at).toISOString(),
    };
  }

  /** The customer's number `address`, served by a simulator; 404 for anything else. */
  async #simulated(customerId: string, address: string): Promise<SimulatedNumber> {
    const number = await this.#deps.store.numbers.findByAddress(customerId, address);
    if (!number) {
      throw new DomainError('NOT_FOUND', `${address} is not one of your numbers`);
    }
    return { number, sandbox: await this.#sandboxOf(number.instanceId, address) };
  }

  async #sandboxOf(instanceId: string, what: string): Promise<SimulatorSandbox> {
    const provider = await callProvider(() => this.#deps.hub.provider(instanceId));
    if (!(provider instanceof SimulatorProvider)) {
      throw new DomainError(
        'NOT_FOUND',
        `${what} is not served by the simulator; the sandbox only drives simulated numbers`,
      );
    }
    return provider.sandbox;
  }

  /** The provider id of the customer's message a reaction or keep names. */
  async #targetExternalId(
    customerId: string,
    number: SenderNumberView,
    body: { messageId?: string | undefined; targetExternalId?: string | undefined },
  ): Promise<string> {
    if (body.messageId === undefined) return body.targetExternalId ?? '';
    const target = await this.#deps.store.messages.findById(customerId, body.messageId);
    if (!target || target.deletedAt !== null || target.suppressed) {
      throw new DomainError('NOT_FOUND', `No message ${body.messageId} exists`);
    }
    if (target.externalId === null || target.instanceId !== number.instanceId) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `messageId: ${body.messageId} has no provider id on the instance of ${number.phoneNumber} yet`,
      );
    }
    return target.externalId;
  }

  /** The customer's message with this provider id on the number's instance, if any. */
  async #ownMessage(
    number: SenderNumberView,
    externalId: string,
  ): Promise<MessageRecord | undefined> {
    const message = await this.#deps.store.messages.findByExternalId(number.instanceId, externalId);
    return message?.customerId === number.customerId ? message : undefined;
  }

  /** The inbound message the simulator just delivered (recorded before the sandbox returned). */
  async #received(number: SenderNumberView, externalId: string): Promise<MessageRecord> {
    const message = await this.#ownMessage(number, externalId);
    if (!message) {
      throw new Error(`the simulated message ${externalId} was not recorded by the inbound path`);
    }
    return message;
  }

  async #session(number: SenderNumberView): Promise<WhatsAppSession> {
    const session = await this.#deps.store.whatsappSessions.find(
      number.customerId,
      number.phoneNumber,
    );
    return toSessionView(number.phoneNumber, session);
  }
}

/**
 * E-mail style addresses are iMessage accounts: a contact or receiving address of that form on
 * another channel cannot exist.
 */
function checkAddresses(channel: string, from: string, to: string): void {
  if (channel === 'imessage') return;
  for (const [field, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (EMAIL_PATTERN.test(value)) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `${field}: e-mail style addresses exist on imessage only, not ${channel}`,
      );
    }
  }
}

/** A sandbox attachment as the simulator takes it: bytes or a URL, with a MIME type. */
function toSandboxAttachment(item: {
  data?: string | undefined;
  url?: string | undefined;
  mimeType?: string | undefined;
  filename?: string | undefined;
}): SandboxAttachment {
  const mimeType = item.mimeType ?? mimeTypeFromName(item.filename) ?? OCTET_STREAM;
  const content: SandboxAttachment['content'] =
    item.data !== undefined
      ? { kind: 'bytes', data: new Uint8Array(Buffer.from(item.data, 'base64')) }
      : { kind: 'url', url: item.url ?? '' };
  return { content, mimeType, ...(item.filename === undefined ? {} : { filename: item.filename }) };
}
