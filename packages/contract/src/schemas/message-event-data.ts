import { z } from 'zod';
import { component, doc, extendApi } from '../schema-annotations';
import { WhatsAppParticipant } from './chat';
import { Channel, MessageId, Uuid } from './common';
import { eventAddress } from './event-fields';
import { MessageStatus, Metadata } from './message-values';

const conversationFields = {
  id: doc(z.string().uuid(), { format: 'uuid', description: 'The chat’s `conversationId`.' }),
  chatId: doc(z.string(), { description: 'Provider chat identifier.' }),
  isGroup: z.boolean(),
  name: doc(z.string().nullable(), { description: 'Display name; null when the chat has none.' }),
};

/** An iMessage chat in a lifecycle event: participants are plain addresses. */
export const IMessageConversationFragment = component(
  'IMessageConversationFragment',
  z.object({
    ...conversationFields,
    channel: z.literal('imessage'),
    participants: doc(z.array(z.string()), { description: 'Phone numbers or account ids.' }),
  }),
  {
    description: 'The iMessage chat of a message.',
    example: {
      id: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      chatId: 'iMessage;+;chat493027156834',
      channel: 'imessage',
      isGroup: true,
      name: 'Launch crew',
      participants: ['+14155550123', 'ada@example.com'],
    },
  },
);
/** An iMessage chat fragment. */
export type IMessageConversationFragment = z.infer<typeof IMessageConversationFragment>;

/** A WhatsApp chat in a lifecycle event: participants carry `isPhoneResolved`. */
export const WhatsAppConversationFragment = component(
  'WhatsAppConversationFragment',
  z.object({
    ...conversationFields,
    channel: z.literal('whatsapp'),
    participants: z.array(WhatsAppParticipant),
  }),
  { description: 'The WhatsApp chat of a message.' },
);
/** A WhatsApp chat fragment. */
export type WhatsAppConversationFragment = z.infer<typeof WhatsAppConversationFragment>;

/** The chat a message belongs to, discriminated on `channel`. */
export const ConversationFragment = component(
  'ConversationFragment',
  extendApi(
    z.discriminatedUnion('channel', [IMessageConversationFragment, WhatsAppConversationFragment]),
    {
      // Code generators resolve the member by this mapping, not by component name.
      discriminator: {
        propertyName: 'channel',
        mapping: {
          imessage: '#/components/schemas/IMessageConversationFragment',
          whatsapp: '#/components/schemas/WhatsAppConversationFragment',
        },
      },
    },
  ),
  {
    description:
      'The chat a message belongs to: strings as participants on imessage, participant objects (with `isPhoneResolved`) on whatsapp.',
  },
);
/** The chat fragment of a lifecycle event. */
export type ConversationFragment = z.infer<typeof ConversationFragment>;

/** The sending instance of a chat-keyed send, as its lifecycle events show it. */
export const SenderFragment = component(
  'SenderFragment',
  z.object({
    address: eventAddress('The sender address (phone or account).', '+14155550100'),
    instanceName: doc(z.string(), {
      description: 'Friendly name of the sending instance.',
      example: 'sales-mac-mini',
    }),
  }),
  { description: 'The instance a chat-keyed send went out from.' },
);
/** The sender fragment of a lifecycle event. */
export type SenderFragment = z.infer<typeof SenderFragment>;

const LifecycleObject = z.object({
  messageId: MessageId,
  externalMessageId: doc(z.string().nullable(), {
    description: 'Provider-assigned id; null until the provider has one. A retry issues a new one.',
  }),
  from: eventAddress('Sender address.', '+14155550100'),
  to: doc(z.string().min(1).optional(), {
    description:
      'Recipient (E.164, e-mail style address or group JID); absent on chat-keyed sends.',
    example: '+14155550123',
  }),
  conversationId: doc(Uuid.optional(), {
    description: 'The chat of a chat-keyed send, in place of `to`.',
  }),
  text: doc(z.string(), { description: 'Message text; empty when the message is media only.' }),
  // Null while no channel has been chosen yet: a routed send that is scheduled, queued or
  // cancelled, or one that failed before any channel took it.
  channel: Channel.nullable(),
  metadata: Metadata.nullable(),
  status: MessageStatus,
  errorCode: doc(z.string().optional(), {
    description: 'Why the message failed (on `message.failed` and `message.edit_failed`).',
    example: 'IMESSAGE_SEND_FAILED',
  }),
  errorMessage: doc(z.string().optional(), { description: 'Human-readable failure reason.' }),
  conversation: ConversationFragment.optional(),
  sender: SenderFragment.optional(),
  direction: doc(z.literal('inbound').optional(), {
    description:
      'Present (`inbound`) on events about a message a contact sent: their edit (`message.edited`) or unsend (`message.unsent`). Absent on events about messages sent through the gateway.',
  }),
  source: doc(z.literal('device').optional(), {
    description:
      'Present (`device`) on events about a message sent from the instance’s own device (the Mac or phone), not through the API.',
  }),
});
type LifecycleFields = z.infer<typeof LifecycleObject>;

/** A lifecycle payload names its recipient exactly one way, and a chat-keyed one its chat. */
function checkRecipient(data: LifecycleFields, ctx: z.RefinementCtx): void {
  if ((data.to === undefined) === (data.conversationId === undefined)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['to'],
      message: 'exactly one of to and conversationId must be present',
    });
  }
  if (data.conversationId !== undefined) {
    if (data.conversation === undefined || data.sender === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['conversation'],
        message: 'a chat-keyed send carries its conversation and sender fragments',
      });
    } else if (data.conversation.id !== data.conversationId) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['conversation', 'id'],
        message: 'must equal conversationId',
      });
    }
  }
}

/** Data of the message lifecycle events (queued, sent, delivered, read, failed, …). */
export const MessageLifecycleData = component(
  'MessageLifecycleData',
  LifecycleObject.superRefine(checkRecipient),
  {
    description:
      'A message at a point of its life. `status` is the message’s status when the event was emitted. Chat-keyed sends carry `conversationId`, `conversation` and `sender` instead of `to`.',
  },
);
/** Data of a message lifecycle event. */
export type MessageLifecycleData = z.infer<typeof MessageLifecycleData>;

/** Why a send moved to the next channel. */
export const FallbackReason = doc(z.enum(['unavailable', 'send_failed']), {
  description:
    '`unavailable`: the recipient cannot be reached on `fromChannel`; `send_failed`: the send on `fromChannel` failed.',
});
/** Why a send fell back. */
export type FallbackReason = z.infer<typeof FallbackReason>;

/** Data of `message.fallback`. */
export const MessageFallbackData = component(
  'MessageFallbackData',
  LifecycleObject.extend({
    fromChannel: Channel,
    toChannel: Channel,
    reason: FallbackReason,
  }).superRefine(checkRecipient),
  { description: 'A send moving from one channel to the next; `channel` is `toChannel`.' },
);
/** Data of `message.fallback`. */
export type MessageFallbackData = z.infer<typeof MessageFallbackData>;

/** Data of `message.edited`. */
export const MessageEditedData = component(
  'MessageEditedData',
  LifecycleObject.extend({
    previousText: doc(z.string(), { description: 'The text before the edit.' }),
  }).superRefine(checkRecipient),
  { description: 'An edited message: `text` is the new text, `previousText` the old one.' },
);
/** Data of `message.edited`. */
export type MessageEditedData = z.infer<typeof MessageEditedData>;

/** Data of `message.edit_failed`. */
export const MessageEditFailedData = component(
  'MessageEditFailedData',
  LifecycleObject.extend({
    attemptedText: doc(z.string(), { description: 'The text the edit tried to set.' }),
    errorCode: doc(z.string(), { description: 'Why the edit failed.', example: 'EDIT_FAILED' }),
    errorMessage: z.string(),
  }).superRefine(checkRecipient),
  {
    description: 'An edit that did not complete: `text` is still the current text.',
  },
);
/** Data of `message.edit_failed`. */
export type MessageEditFailedData = z.infer<typeof MessageEditFailedData>;
