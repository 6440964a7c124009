import type { InboundAttachment, OtpDetection } from '@switchboard/contract';
import type {
  ProviderInboundMessageEvent,
  ProviderLogger,
  ProviderParticipant,
} from '@switchboard/provider-kit';
import { requireCapability } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import type { InboundContext, InboundHandler, ProviderHub } from '../../providers/provider-hub';
import type { MessageRecord } from '../../store/message-repository';
import type { SenderNumberView } from '../../store/number-repository';
import type { UnitOfWork } from '../../store/store';
import {
  type InboundAttachmentDeps,
  type PreparedAttachment,
  prepareInboundAttachments,
  saveInboundAttachments,
  toInboundAttachmentView,
} from '../attachments/inbound-attachments';
import type { ReadyConversation } from '../chats/chat-views';
import { conversationForInbound } from '../chats/inbound-conversation';
import { participantOf, phoneOfJid } from '../chats/participant-address';
import type { MessageEvents } from '../messages/message-events';
import type { OptOutLedger } from '../opt-outs/opt-out-ledger';
import { detectVerificationCode } from '../otp';
import { groupFragment, inboundData, inboundMessageRecord } from './inbound-message-record';
import { findReceivingNumber } from './receiving-number';
import { purgeExpiredSignupCodes } from './signup-code-retention';
import type { UnroutedInboundKeeper } from './unrouted-inbound-keeper';

/** Dependencies of the inbound message handler. */
export interface InboundMessageDeps {
  /** The store. */
  store: UnitOfWork;
  /** Where `message.inbound` is recorded. */
  events: EventRecorder;
  /** The time source. */
  clock: Clock;
  /** The running providers (to learn about chats seen for the first time). */
  hub: Pick<ProviderHub, 'provider'>;
  /** How attachment bytes are fetched, stored and signed. */
  attachments: InboundAttachmentDeps;
  /** Where dropped events are reported. */
  logger: ProviderLogger;
  /** Records the lifecycle events of messages (those sent from the instance's own device). */
  lifecycle: Pick<MessageEvents, 'lifecycle'>;
  /** Records STOP and START keywords in the opt-out ledger. */
  optOuts?: Pick<OptOutLedger, 'recordInbound'>;
  /** Keeps the messages no customer can receive now, for delivery once their address is. */
  unrouted: Pick<UnroutedInboundKeeper, 'keep'>;
}

/** The chat an inbound message arrived in, with the members it shows. */
interface InboundChat {
  /** The chat's channel (sms has no chats). */
  channel: 'imessage' | 'whatsapp';
  /** The provider's id of the chat. */
  chatId: string;
  /** The members the message shows. */
  members: ProviderParticipant[];
  /** The chat's name, when the provider told it. */
  name: string | undefined;
}

/** What `receive` works out for a new message before its transaction. */
interface InboundPlan {
  /** The receiving number, which names the customer. */
  number: SenderNumberView;
  /** True when the instance's own device sent it. */
  own: boolean;
  /** The detected verification code, if any. */
  otp: OtpDetection | null;
  /** True when it is kept only for the signup codes. */
  suppressed: boolean;
  /** Its attachments, their bytes stored. */
  prepared: PreparedAttachment[];
  /** The chat it arrived in, if any. */
  chat: InboundChat | undefined;
  /** When it was received. */
  at: Date;
  /** The upstream's time of the message, never after `at`. */
  sentAt: Date;
  /** The contact's address. */
  contact: string;
  /** Its sender's address as the customer sees it. */
  from: string;
  /** Its recipient's address as the customer sees it. */
  to: string;
}

/** What happened to one inbound message. */
export interface InboundOutcome {
  /** The stored message. */
  message: MessageRecord;
  /** Its attachments as the event shows them. */
  attachments: InboundAttachment[];
  /** The detected verification code, if any. */
  otp: OtpDetection | null;
  /** True when it was kept only for the signup codes (no event, not listed). */
  suppressed: boolean;
}

/**
 * Receives messages from contacts: matched to the customer by the receiving number (and the
 * instance serving it), stored as an inbound Message, its attachments' bytes stored with signed
 * download URLs, and emitted as `message.inbound`. A message the instance's own device sent is
 * stored as outbound (`source: "device"`, status `sent`) and emitted as `message.sent`; a message
 * of a history sync is stored and never emitted. A verification code is kept for the
 * signup-codes endpoint and, unless the customer's `otpHandling` is `annotate`, suppressed: no
 * event, not listed, not returned. Redelivered events (same provider id) change nothing.
 */
export class InboundMessageReceiver {
  readonly #deps: InboundMessageDeps;

  /** Creates the receiver. */
  constructor(deps: InboundMessageDeps) {
    this.#deps = deps;
  }

  /** The handler to register for `message.inbound`. */
  handler(): InboundHandler<'message.inbound'> {
    return async (event, context) => {
      await this.receive(event, context);
    };
  }

  /**
   * Receives one message; undefined when it belongs to no customer of this instance (then it is
   * kept, for delivery once its address is assigned).
   */
  async receive(
    event: ProviderInboundMessageEvent,
    context: InboundContext,
  ): Promise<InboundOutcome | undefined> {
    const { store } = this.#deps;
    // Sent from the instance's own device: the instance is the sender, the contact the recipient.
    const own = event.fromMe === true;
    const ownAddress = own ? event.from : event.to;
    const number = await findReceivingNumber(store, context, ownAddress);
    if (!number) {
      await this.#deps.unrouted.keep(event, context, ownAddress);
      return undefined;
    }
    const known = await store.messages.findByExternalId(context.instanceId, event.externalId);
    if (known && known.customerId === number.customerId && (own || known.direction === 'inbound')) {
      return this.outcomeOf(known);
    }
    const plan = await this.#plan(event, context, number, ownAddress);
    return store.transaction((tx) => this.#store(tx, event, context, plan));
  }

  /**
   * What a new message needs before its transaction: its parties, its verification code (looked
   * for only in what contacts send now), its attachments' bytes, the chat it arrived in, its times.
   */
  async #plan(
    event: ProviderInboundMessageEvent,
    context: InboundContext,
    number: SenderNumberView,
    ownAddress: string,
  ): Promise<InboundPlan> {
    const own = event.fromMe === true;
    const customer = await this.#deps.store.customers.findById(number.customerId);
    // Codes are looked for in what contacts send now, not in the device's own or old messages.
    const otp = own || event.history ? null : otpIn(event.text);
    const suppressed = otp !== null && customer?.settings.otpHandling !== 'annotate';
    const prepared = await prepareInboundAttachments(this.#deps.attachments, event.attachments);
    const chat = await this.#chatMembers(event, context, number);
    const at = new Date(this.#deps.clock.now());
    // The upstream's time of the message (a replayed history keeps its dates), never the future.
    const sentAt = new Date(Math.min(event.occurredAt.getTime(), at.getTime()));
    const contactAddress = own ? event.to : event.from;
    const contact = phoneOfJid(contactAddress) ?? contactAddress;
    const instanceAddress = number.email === ownAddress ? ownAddress : number.phoneNumber;
    return {
      number,
      own,
      otp,
      suppressed,
      prepared,
      chat,
      at,
      sentAt,
      contact,
      from: own ? instanceAddress : contact,
      to: own ? contact : instanceAddress,
    };
  }

  /**
   * Stores a new message in `tx`: its conversation, the message and its attachments, its signup
   * code, the opt-out keywords it carries, and its event.
   */
  async #store(
    tx: UnitOfWork,
    event: ProviderInboundMessageEvent,
    context: InboundContext,
    plan: InboundPlan,
  ): Promise<InboundOutcome> {
    const { number, own, otp, suppressed, prepared, at } = plan;
    const conversation = await this.#conversationOf(tx, event, context, plan);
    const replyTarget =
      event.replyToExternalId === undefined
        ? undefined
        : await tx.messages.findByExternalId(context.instanceId, event.replyToExternalId);
    const message = inboundMessageRecord(event, {
      instanceId: context.instanceId,
      customerId: number.customerId,
      own,
      from: plan.from,
      to: plan.to,
      conversationId: conversation?.id ?? null,
      replyTo: replyTarget?.customerId === number.customerId ? replyTarget.id : null,
      attachments: prepared,
      suppressed,
      at,
      sentAt: plan.sentAt,
    });
    await tx.messages.insert(message);
    await saveInboundAttachments(
      tx,
      { customerId: number.customerId, messageId: message.id },
      prepared,
      at,
    );
    if (otp) await keepSignupCode(tx, event, message, plan, otp);
    if (!own && !event.history && !event.isGroup) {
      await this.#deps.optOuts?.recordInbound(tx, {
        customerId: number.customerId,
        sender: number.phoneNumber,
        recipient: plan.contact,
        channel: event.channel,
        text: event.text,
        optOutType: event.optOutType,
      });
    }
    await this.#announce(tx, event, message, plan, conversation);
    return { message, attachments: prepared.map(toInboundAttachmentView), otp, suppressed };
  }

  /** The conversation of the chat a new message arrived in; undefined when it has none. */
  async #conversationOf(
    tx: UnitOfWork,
    event: ProviderInboundMessageEvent,
    context: InboundContext,
    plan: InboundPlan,
  ): Promise<ReadyConversation | undefined> {
    const { chat, number } = plan;
    if (!chat) return undefined;
    return conversationForInbound(tx, {
      customerId: number.customerId,
      instanceId: context.instanceId,
      channel: chat.channel,
      chatId: chat.chatId,
      isGroup: event.isGroup,
      ownerAddress: number.phoneNumber,
      members: chat.members,
      name: chat.name,
      at: plan.at,
    });
  }

  /**
   * Emits a new message: `message.sent` for the device's own, `message.inbound` for a contact's
   * unless suppressed, nothing for a history sync.
   */
  async #announce(
    tx: UnitOfWork,
    event: ProviderInboundMessageEvent,
    message: MessageRecord,
    plan: InboundPlan,
    conversation: ReadyConversation | undefined,
  ): Promise<void> {
    if (event.history) {
      // History sync: stored for the record, never emitted.
    } else if (plan.own) {
      await this.#deps.lifecycle.lifecycle(tx, 'message.sent', message, message.correlationId);
    } else if (!plan.suppressed) {
      await this.#deps.events.record(tx, {
        customerId: plan.number.customerId,
        type: 'message.inbound',
        correlationId: message.correlationId,
        messageId: message.id,
        data: inboundData(message, plan.prepared, groupFragment(conversation), plan.otp),
      });
    }
  }

  /** What a received message became, with fresh download URLs (redeliveries, the sandbox). */
  async outcomeOf(message: MessageRecord): Promise<InboundOutcome> {
    const stored = await this.#deps.store.storedAttachments.listOfMessage(
      message.customerId,
      message.id,
    );
    const attachments: InboundAttachment[] = [];
    for (const [position, attachment] of message.attachments.entries()) {
      const bytes = stored.find((candidate) => candidate.position === position);
      attachments.push({
        ...(bytes?.providerId ? { guid: bytes.providerId } : {}),
        mimeType: attachment.mimeType ?? 'application/octet-stream',
        ...(attachment.filename === null ? {} : { filename: attachment.filename }),
        totalBytes: attachment.totalBytes ?? 0,
        ...(bytes
          ? { downloadUrl: await this.#deps.attachments.signer.urlFor(bytes.id) }
          : { note: 'the file could not be stored' }),
        ...(attachment.renditions === undefined
          ? {}
          : {
              renditions: await Promise.all(
                attachment.renditions.map(async (copy) => ({
                  mimeType: copy.mimeType,
                  totalBytes: copy.totalBytes,
                  downloadUrl: await this.#deps.attachments.signer.urlFor(copy.storedId),
                })),
              ),
            }),
      });
    }
    return {
      message,
      attachments,
      otp: otpIn(message.text),
      suppressed: message.suppressed,
    };
  }

  /**
   * The chat an inbound message arrived in, with the members it shows: the sender, and for a
   * chat seen for the first time what the provider knows of it. Undefined for a plain direct
   * message (no chat id) and on sms, which has no chats.
   */
  async #chatMembers(
    event: ProviderInboundMessageEvent,
    context: InboundContext,
    number: SenderNumberView,
  ): Promise<InboundChat | undefined> {
    if (event.chatId === undefined || event.channel === 'sms') return undefined;
    const channel = event.channel;
    const chatId = event.chatId;
    // The device's own message adds no member: its sender is the instance.
    const sender = event.fromMe ? [] : [participantOf(channel, event.from)];
    const known = await this.#deps.store.conversations.findByInstanceChat(
      number.customerId,
      context.instanceId,
      chatId,
    );
    if (known) return { channel, chatId, members: sender, name: undefined };
    const upstream = await this.#deps.hub
      .provider(context.instanceId)
      .then((provider) =>
        requireCapability(provider, 'chats', channel).getChat({
          channel,
          from: number.phoneNumber,
          chatId,
        }),
      )
      .catch(() => null);
    const members = (upstream?.participants ?? []).map((member) =>
      channel === 'whatsapp' ? member : participantOf(channel, member.handle),
    );
    return { channel, chatId, members: [...members, ...sender], name: upstream?.name };
  }
}

/** The verification code a text carries, if any. */
function otpIn(text: string): OtpDetection | null {
  const detected = text === '' ? null : detectVerificationCode(text);
  return detected ? { code: detected.code, provider: detected.provider } : null;
}

/** Keeps a new message's verification code for the signup-codes endpoint. */
async function keepSignupCode(
  tx: UnitOfWork,
  event: ProviderInboundMessageEvent,
  message: MessageRecord,
  plan: InboundPlan,
  otp: OtpDetection,
): Promise<void> {
  await purgeExpiredSignupCodes(tx, plan.at);
  await tx.signupCodes.insert({
    messageId: message.id,
    customerId: plan.number.customerId,
    receivingAddress: plan.number.phoneNumber,
    code: otp.code,
    provider: otp.provider,
    fromAddress: plan.from,
    channel: event.channel,
    receivedAt: plan.at,
  });
}
