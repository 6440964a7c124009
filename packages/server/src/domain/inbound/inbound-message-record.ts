import type { ConversationFragment, MessageInboundData, OtpDetection } from '@switchboard/contract';
import type { ProviderInboundMessageEvent } from '@switchboard/provider-kit';
import { newCorrelationId, newId } from '../../ids';
import type { MessageRecord } from '../../store/message-repository';
import {
  type PreparedAttachment,
  toInboundAttachmentView,
  toMessageAttachment,
} from '../attachments/inbound-attachments';
import { type ReadyConversation, toConversationFragment } from '../chats/chat-views';

/** What an inbound message's record is made of besides the provider's event. */
export interface InboundMessageParts {
  /** The instance it arrived on. */
  instanceId: string;
  /** The customer it belongs to. */
  customerId: string;
  /** True when the instance's own device sent it. */
  own: boolean;
  /** Its sender's address as the customer sees it. */
  from: string;
  /** Its recipient's address as the customer sees it. */
  to: string;
  /** The conversation it joins, if any. */
  conversationId: string | null;
  /** The customer's message it replies to, if any. */
  replyTo: string | null;
  /** Its attachments, prepared. */
  attachments: readonly PreparedAttachment[];
  /** True when it is kept only for the signup codes. */
  suppressed: boolean;
  /** When it was received. */
  at: Date;
  /** The upstream's time of the message, never after `at`. */
  sentAt: Date;
}

/**
 * The stored record of a message received from a contact (`inbound`, delivered) or sent from the
 * instance's own device (`outbound`, sent, `source: "device"`).
 */
export function inboundMessageRecord(
  event: ProviderInboundMessageEvent,
  parts: InboundMessageParts,
): MessageRecord {
  const { own, at, sentAt } = parts;
  return {
    id: newId('msg'),
    customerId: parts.customerId,
    direction: own ? 'outbound' : 'inbound',
    // An inbound message has reached its recipient: it is delivered from the first moment;
    // the device's own message is known to be sent (its receipts follow as status events).
    status: own ? 'sent' : 'delivered',
    to: parts.to,
    conversationId: parts.conversationId,
    providerChatId: event.chatId ?? null,
    isGroup: event.isGroup,
    from: parts.from,
    instanceId: parts.instanceId,
    channel: event.channel,
    pinnedChannel: null,
    text: event.text,
    mediaUrls: null,
    attachments: parts.attachments.map(toMessageAttachment),
    effect: null,
    messageType: null,
    mentions: null,
    replyTo: parts.replyTo,
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
    timeline: [{ status: own ? 'sent' : 'delivered', at: at.getTime(), channel: event.channel }],
    correlationId: newCorrelationId(),
    suppressed: parts.suppressed,
    source: own ? 'device' : null,
    createdAt: Number.isNaN(sentAt.getTime()) ? at : sentAt,
    updatedAt: at,
    deletedAt: null,
  };
}

/** The group fragment of `message.inbound`: present when the message arrived in a group. */
export function groupFragment(
  conversation: ReadyConversation | undefined,
): ConversationFragment | undefined {
  return conversation?.isGroup ? toConversationFragment(conversation) : undefined;
}

/** The data of `message.inbound`: the message, its attachments, its group and its code. */
export function inboundData(
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
