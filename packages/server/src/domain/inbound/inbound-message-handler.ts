import type {
  ConversationFragment,
  InboundAttachment,
  MessageInboundData,
  OtpDetection,
} from '@switchboard/contract';
import type {
  ProviderInboundMessageEvent,
  ProviderLogger,
  ProviderParticipant,
} from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { EventRecorder } from '../../events/event-recorder';
import { newCorrelationId, newId } from '../../ids';
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
  toMessageAttachment,
} from '../attachments/inbound-attachments';
import { type ReadyConversation, toConversationFragment } from '../chats/chat-views';
import { conversationForInbound } from '../chats/inbound-conversation';
import { participantOf, phoneOfJid } from '../chats/participant-address';
import type { MessageEvents } from '../messages/message-events';
import type { OptOutLedger } from '../opt-outs/opt-out-ledger';
import { detectVerificationCode } from '../otp';
import { findReceivingNumber } from './receiving-number';
import { purgeExpiredSignupCodes } from './signup-code-retention';

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

  /** Receives one message; undefined when it belongs to no customer of this instance. */
  async receive(
    event: ProviderInboundMessageEvent,
    context: InboundContext,
  ): Promise<InboundOutcome | undefined> {
    const { store, clock, events } = this.#deps;
    // Sent from the instance's own device: the instance is the sender, the contact the recipient.
    const own = event.fromMe === true;
    const number = await findReceivingNumber(store, context, own ? event.from : event.to);
    if (!number) {
      this.#deps.logger.warn(
        { instance: context.instanceName, channel: event.channel },
        'inbound message dropped: the receiving address is not assigned on this instance',
      );
      return undefined;
    }
    const known = await store.messages.findByExternalId(context.instanceId, event.externalId);
    if (known && known.customerId === number.customerId && (own || known.direction === 'inbound')) {
      return this.outcomeOf(known);
    }

    const customer = await store.customers.findById(number.customerId);
    // Codes are looked for in what contacts send now, not in the device's own or old messages.
    const detected =
      event.text === '' || own || event.history ? null : detectVerificationCode(event.text);
    const otp: OtpDetection | null = detected
      ? { code: detected.code, provider: detected.provider }
      : null;
    const suppressed = otp !== null && customer?.settings.otpHandling !== 'annotate';
    const prepared = await prepareInboundAttachments(this.#deps.attachments, event.attachments);
    const chatMembers = await this.#chatMembers(event, context, number);
    const at = new Date(clock.now());
    // The upstream's time of the message (a replayed history keeps its dates), never the future.
    const sentAt = new Date(Math.min(event.occurredAt.getTime(), at.getTime()));
    const contactAddress = own ? event.to : event.from;
    const contact = phoneOfJid(contactAddress) ?? contactAddress;
    const ownAddress = own ? event.from : event.to;
    const instanceAddress = number.email === ownAddress ? ownAddress : number.phoneNumber;
    const from = own ? instanceAddress : contact;
    const to = own ? contact : instanceAddress;

    return store.transaction(async (tx) => {
      const conversation = chatMembers
        ? await conversationForInbound(tx, {
            customerId: number.customerId,
            instanceId: context.instanceId,
            channel: chatMembers.channel,
            chatId: chatMembers.chatId,
            isGroup: event.isGroup,
            ownerAddress: number.phoneNumber,
            members: chatMembers.members,
            name: chatMembers.name,
            at,
          })
        : undefined;
      const replyTarget =
        event.replyToExternalId === undefined
          ? undefined
          : await tx.messages.findByExternalId(context.instanceId, event.replyToExternalId);
      const message: MessageRecord = {
        id: newId('msg'),
        customerId: number.customerId,
        direction: own ? 'outbound' : 'inbound',
        // An inbound message has reached its recipient: it is delivered from the first moment;
        // the device's own message is known to be sent (its receipts follow as status events).
        status: own ? 'sent' : 'delivered',
        to,
        conversationId: conversation?.id ?? null,
        providerChatId: event.chatId ?? null,
        isGroup: event.isGroup,
        from,
        instanceId: context.instanceId,
        channel: event.channel,
        pinnedChannel: null,
        text: event.text,
        mediaUrls: null,
        attachments: prepared.map(toMessageAttachment),
        effect: null,
        messageType: null,
        mentions: null,
        replyTo: replyTarget?.customerId === number.customerId ? replyTarget.id : null,
        scheduledAt: null,
        idempotencyKey: null,
        callbackUrl: null,
        metadata: null,
        createContact: null,
        routingPreference: [],
        routingFallback: false,
        fallbackTriggered: false,
        externalId: event.externalId,
        errorCode: null,
        errorMessage: null,
        retryCount: 0,
        timeline: [
          { status: own ? 'sent' : 'delivered', at: at.getTime(), channel: event.channel },
        ],
        correlationId: newCorrelationId(),
        suppressed,
        source: own ? 'device' : null,
        createdAt: Number.isNaN(sentAt.getTime()) ? at : sentAt,
        updatedAt: at,
        deletedAt: null,
      };
      await tx.messages.insert(message);
      await saveInboundAttachments(
        tx,
        { customerId: number.customerId, messageId: message.id },
        prepared,
        at,
      );
      if (otp) {
        await purgeExpiredSignupCodes(tx, at);
        await tx.signupCodes.insert({
          messageId: message.id,
          customerId: number.customerId,
          receivingAddress: number.phoneNumber,
          code: otp.code,
          provider: otp.provider,
          fromAddress: from,
          channel: event.channel,
          receivedAt: at,
        });
      }
      if (!own && !event.history && !event.isGroup) {
        await this.#deps.optOuts?.recordInbound(tx, {
          customerId: number.customerId,
          sender: number.phoneNumber,
          recipient: contact,
          channel: event.channel,
          text: event.text,
        });
      }
      if (event.history) {
        // History sync: stored for the record, never emitted.
      } else if (own) {
        await this.#deps.lifecycle.lifecycle(tx, 'message.sent', message, message.correlationId);
      } else if (!suppressed) {
        await events.record(tx, {
          customerId: number.customerId,
          type: 'message.inbound',
          correlationId: message.correlationId,
          messageId: message.id,
          data: inboundData(message, prepared, groupFragment(conversation), otp),
        });
      }
      return { message, attachments: prepared.map(toInboundAttachmentView), otp, suppressed };
    });
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
    const detected = message.text === '' ? null : detectVerificationCode(message.text);
    return {
      message,
      attachments,
      otp: detected ? { code: detected.code, provider: detected.provider } : null,
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
  ): Promise<
    | {
        channel: 'imessage' | 'whatsapp';
        chatId: string;
        members: ProviderParticipant[];
        name: string | undefined;
      }
    | undefined
  > {
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
      .then((provider) => provider.getChat({ channel, from: number.phoneNumber, chatId }))
      .catch(() => null);
    const members = (upstream?.participants ?? []).map((member) =>
      channel === 'whatsapp' ? member : participantOf(channel, member.handle),
    );
    return { channel, chatId, members: [...members, ...sender], name: upstream?.name };
  }
}

/** The group fragment of `message.inbound`: present when the message arrived in a group. */
function groupFragment(
  conversation: ReadyConversation | undefined,
): ConversationFragment | undefined {
  return conversation?.isGroup ? toConversationFragment(conversation) : undefined;
}

function inboundData(
  message: MessageRecord,
  attachments: readonly PreparedAttachment[],
  conversation: ConversationFragment | undefined,
  otp: OtpDetection | null,
): MessageInboundData {
  return {
    messageId: message.id,
    externalMessageId: message.externalId,
    from: message.from,
    to: message.to ?? '',
    text: message.text,
    channel: message.channel ?? 'imessage',
    attachments: attachments.map(toInboundAttachmentView),
    ...(conversation === undefined ? {} : { conversation }),
    ...(otp === null ? {} : { otp }),
  };
}
