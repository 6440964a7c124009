import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Channel, MessageId, PageQuery, Pagination, Timestamp, Uuid } from './common';
import { AttachmentRendition, MediaConversion } from './media';

import { MessageRecipient, MessageText, nullableEnum } from './message-rules';
import {
  MESSAGE_STATUSES,
  MessageEffect,
  MessageStatus,
  metadataSchema,
  ReactionType,
} from './message-values';
// ---------------------------------------------------------------------------------------------
// The message resource
// ---------------------------------------------------------------------------------------------

/** One step of a message's lifecycle. */
export const TimelineEntry = component(
  'TimelineEntry',
  z.object({
    status: MessageStatus,
    at: Timestamp,
    channel: nullableEnum(Channel.options),
  }),
  {
    description: 'A status the message reached, when, and on which channel (null before routing).',
    example: { status: 'sent', at: '2026-11-21T10:00:01.120Z', channel: 'imessage' },
  },
);
/** One step of a message's lifecycle. */
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** A file of a stored message: metadata only, never the bytes. */
export const MessageAttachment = component(
  'MessageAttachment',
  z.object({
    mimeType: doc(z.string().nullable(), { example: 'application/pdf' }),
    filename: doc(z.string().nullable(), { example: 'invoice-1842.pdf' }),
    totalBytes: doc(z.number().int().min(0).nullable(), {
      description: 'Size in bytes; null while unknown (a URL not fetched yet).',
      example: 48213,
    }),
    isAudioMessage: z.boolean(),
    url: doc(z.string().nullable(), {
      description: 'Source URL of a `url` attachment; null for uploaded or received bytes.',
    }),
    downloadUrl: doc(z.string().nullable(), {
      description:
        'Pre-signed download URL (valid 1 hour, no API key) when Switchboard stores the bytes; null otherwise.',
    }),
    conversion: doc(MediaConversion.optional(), {
      description:
        'Outbound: how the file was converted for the channel it went on; absent when it was sent as it was.',
    }),
    renditions: doc(z.array(AttachmentRendition).optional(), {
      description: 'Inbound: browser-playable copies of a voice note or video, when made.',
    }),
  }),
  { description: 'A file of a stored message (metadata only; base64 data is never echoed).' },
);
/** A file of a stored message. */
export type MessageAttachment = z.infer<typeof MessageAttachment>;

/** Why a queued message waits for its sender number's send policy. */
export const MessageHold = component(
  'MessageHold',
  z.object({
    code: doc(z.enum(['daily_cap', 'cold_contact_cap', 'warm_up', 'restricted', 'paused']), {
      description:
        "`daily_cap`: today's sends of the number are used up; `warm_up`: today's cap of the number's warm-up ramp is; `cold_contact_cap`: today's new contacts are; `restricted`: WhatsApp restricted the number and this recipient never wrote to it; `paused`: the delivery watchdog paused the number's sends on the channel (its deliveries stalled) until the operator resumes it. New values may be added.",
    }),
    message: doc(z.string(), {
      description: 'The hold in one sentence.',
      example: "This number's daily cap of 250 sends on whatsapp is used up today",
    }),
    until: doc(Timestamp, {
      description:
        'When the allowance returns (the next day in the configured zone, or the end of the restriction); the message leaves then, or fails with `SEND_POLICY_HOLD_EXPIRED` after the hold window. For `paused` nobody knows when it returns: `until` is the end of the hold window, when the message fails unless the operator resumes the number before.',
    }),
  }),
  { description: "Why a queued message waits for its sender number's send policy." },
);
/** Why a queued message waits for its sender number's send policy. */
export type MessageHold = z.infer<typeof MessageHold>;

/** A message, outbound or inbound. */
export const Message = component(
  'Message',
  z.object({
    id: MessageId,
    direction: doc(z.enum(['outbound', 'inbound']), {
      description: '`outbound` for sends, `inbound` for messages received by your numbers.',
    }),
    source: doc(z.literal('device').optional(), {
      description:
        'Present (`device`) on an outbound message sent from the instance’s own device (the Mac or phone) rather than through the API.',
    }),
    status: MessageStatus,
    segments: doc(z.number().int().min(1).optional(), {
      description:
        'On sms: the segments the carrier bills the send as (160 GSM-7 or 70 UCS-2 characters per single segment, 153/67 per part of a longer text; each MMS counts one), as the upstream reported them (Twilio `num_segments`, summed over the Twilio messages of the send). Absent on other channels and until the upstream accepted the send.',
      example: 2,
    }),
    hold: doc(MessageHold.nullable().optional(), {
      description:
        "Why a `queued` message waits for its sender number's send policy (see `GET /v1/numbers/{phoneNumber}/send-policy`); null or absent when it does not wait for one.",
    }),
    to: doc(z.string().optional(), {
      description:
        'Recipient (outbound) or receiving address (inbound). Absent on chat-keyed sends, which carry `conversationId` instead.',
      example: '+14155550100',
    }),
    conversationId: doc(Uuid.optional(), { description: 'The chat of a chat-keyed send.' }),
    from: doc(z.string(), { description: 'Sender address.', example: '+14155550199' }),
    channel: doc(nullableEnum(Channel.options), {
      description: 'Delivery channel; null until routing picked one.',
    }),
    content: z.object({
      text: doc(z.string(), { description: 'Text; empty for media-only messages.' }),
      mediaUrls: z.array(z.string()).optional(),
    }),
    attachments: z.array(MessageAttachment),
    timeline: z.array(TimelineEntry),
    fallbackTriggered: doc(z.boolean(), {
      description:
        'True when the message went out on a channel other than the first preferred one.',
    }),
    // An inline copy rather than `Metadata.nullable()`: see nullableEnum for why a nullable
    // reference would refuse null in OpenAPI 3.0.
    metadata: doc(metadataSchema().nullable(), {
      description: 'Your key-value data from the send; null when none was given.',
    }),
    externalId: doc(z.string().nullable(), {
      description: 'Provider-assigned id; a retry issues a new one while `id` stays the same.',
    }),
    errorCode: doc(z.string().nullable(), {
      description: 'Why the message failed; null otherwise.',
    }),
    errorMessage: doc(z.string().nullable(), { description: 'Human-readable failure reason.' }),
    retryCount: doc(z.number().int().min(0), { description: 'How many times it was retried.' }),
    scheduledAt: doc(z.string().nullable(), {
      format: 'date-time',
      description: 'When a scheduled send is (or was) due; null for immediate sends.',
    }),
    replyTo: doc(z.string().nullable(), { description: 'Id of the message this one replies to.' }),
    effect: doc(nullableEnum(MessageEffect.options), {
      description: 'The iMessage effect requested, if any.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  {
    description:
      'A message and its delivery lifecycle. `channel` is null until routing picked one; `timeline` lists every status reached.',
    example: {
      id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
      direction: 'outbound',
      status: 'delivered',
      to: '+14155550100',
      from: '+14155550199',
      channel: 'imessage',
      content: { text: 'Your order #1842 has shipped 📦' },
      attachments: [],
      timeline: [
        { status: 'queued', at: '2026-11-21T10:00:00.000Z', channel: null },
        { status: 'sent', at: '2026-11-21T10:00:01.120Z', channel: 'imessage' },
        { status: 'delivered', at: '2026-11-21T10:00:01.640Z', channel: 'imessage' },
      ],
      fallbackTriggered: false,
      metadata: { orderId: 'ord_1842' },
      externalId: 'p:0/4C3E5B1A-2F6D-4E8A-9B7C-1D2E3F4A5B6C',
      errorCode: null,
      errorMessage: null,
      retryCount: 0,
      scheduledAt: null,
      replyTo: null,
      effect: 'confetti',
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:01.640Z',
    },
  },
);
/** A message. */
export type Message = z.infer<typeof Message>;

// ---------------------------------------------------------------------------------------------
// Operation results and other requests
// ---------------------------------------------------------------------------------------------

/** The 202 answer of a send. */
export const SendMessageResult = component(
  'SendMessageResult',
  z.object({
    id: MessageId,
    status: doc(z.enum(['queued', 'scheduled']), {
      description: '`scheduled` when `scheduledAt` was given, else `queued`.',
    }),
    to: doc(z.string().optional(), { description: 'Recipient; absent on chat-keyed sends.' }),
    conversationId: doc(Uuid.optional(), { description: 'The chat, on chat-keyed sends.' }),
    from: doc(z.string(), { description: 'Sender address used.' }),
    createdAt: Timestamp,
  }),
  {
    description: 'The accepted message; follow it with `GET /v1/messages/{id}` or the events.',
    example: {
      id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
      status: 'queued',
      to: '+14155550100',
      from: '+14155550199',
      createdAt: '2026-11-21T10:00:00.000Z',
    },
  },
);
/** The 202 answer of a send. */
export type SendMessageResult = z.infer<typeof SendMessageResult>;

/** A page of messages. */
export const MessageList = component(
  'MessageList',
  z.object({ messages: z.array(Message), pagination: Pagination }),
  { description: 'A page of messages, newest first.' },
);
/** A page of messages. */
export type MessageList = z.infer<typeof MessageList>;

/** `GET /v1/messages` query. */
export const ListMessagesQuery = PageQuery.extend({
  // A fresh enum rather than the MessageStatus component: parameters lose their description in
  // the generator, and a component must always generate the same schema.
  status: doc(z.enum(MESSAGE_STATUSES).optional(), {
    description: 'Only messages in this status.',
    example: 'failed',
  }),
  to: doc(MessageRecipient.optional(), {
    description: 'Only messages with this recipient (E.164, e-mail style address or group JID).',
    example: '+14155550100',
  }),
  from: doc(MessageRecipient.optional(), {
    description:
      'Only messages with this sender: one of your numbers for outbound, the contact for inbound.',
    example: '+14155550199',
  }),
  channel: doc(z.enum(Channel.options).optional(), {
    description: 'Only messages routed to this channel.',
    example: 'sms',
  }),
  createdAfter: doc(z.string().datetime({ offset: true }).optional(), {
    description: 'Only messages created at or after this time (ISO 8601 with offset).',
    example: '2026-11-21T09:00:00Z',
  }),
  createdBefore: doc(z.string().datetime({ offset: true }).optional(), {
    description: 'Only messages created before this time (ISO 8601 with offset).',
    example: '2026-11-21T10:00:00Z',
  }),
}).strict();
/** `GET /v1/messages` query. */
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

/** `GET /v1/messages/scheduled` query. */
export const ListScheduledMessagesQuery = PageQuery.strict();
/** `GET /v1/messages/scheduled` query. */
export type ListScheduledMessagesQuery = z.infer<typeof ListScheduledMessagesQuery>;

/** The `:id` path parameter of the message routes. */
export const MessagePathParams = z.object({
  id: doc(z.string().min(1), {
    description: 'Message id (`msg_…`); for inbound messages the `messageId` of the event.',
    example: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
  }),
});
/** The `:id` path parameter of the message routes. */
export type MessagePathParams = z.infer<typeof MessagePathParams>;

/** The 202 answer of a retry. */
export const RetryResult = component(
  'RetryResult',
  z.object({
    id: MessageId,
    status: z.literal('queued'),
    retryCount: doc(z.number().int().min(1), { description: 'Retries so far, this one included.' }),
  }),
  {
    description: 'The message, queued again with the same id and a new provider id.',
    example: { id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e', status: 'queued', retryCount: 1 },
  },
);
/** The 202 answer of a retry. */
export type RetryResult = z.infer<typeof RetryResult>;

/** `PUT /v1/messages/:id` body. */
export const EditMessageRequest = component(
  'EditMessageRequest',
  z
    .object({
      text: doc(
        MessageText.refine((value) => value.trim().length > 0, { message: 'must not be empty' }),
        {
          description: 'The new text, 1 to 10,000 characters.',
          example: 'Your order #1842 ships tomorrow',
        },
      ),
      backwardsCompatibilityMessage: doc(MessageText.optional(), {
        description: 'Text shown instead on devices too old to display edits.',
        example: 'Correction: your order #1842 ships tomorrow',
      }),
    })
    .strict(),
  {
    description: 'New text for a sent iMessage.',
    example: { text: 'Your order #1842 ships tomorrow' },
  },
);
/** `PUT /v1/messages/:id` body. */
export type EditMessageRequest = z.infer<typeof EditMessageRequest>;

/** `POST /v1/messages/:id/reactions` body. */
export const ReactionRequest = component(
  'ReactionRequest',
  z.object({ type: ReactionType }).strict(),
  { description: 'A tapback to add, or (negative form) remove.', example: { type: 'love' } },
);
/** `POST /v1/messages/:id/reactions` body. */
export type ReactionRequest = z.infer<typeof ReactionRequest>;

/** The answer of a reaction. */
export const ReactionResult = component(
  'ReactionResult',
  z.object({ messageId: MessageId, reaction: ReactionType }),
  {
    description: 'The reaction applied to the message.',
    example: { messageId: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e', reaction: 'love' },
  },
);
/** The answer of a reaction. */
export type ReactionResult = z.infer<typeof ReactionResult>;

/** The answer of a soft delete. */
export const DeleteResult = component(
  'DeleteResult',
  z.object({ id: MessageId, deleted: z.literal(true) }),
  {
    description: 'The message is deleted: gone from get and list.',
    example: { id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e', deleted: true },
  },
);
/** The answer of a soft delete. */
export type DeleteResult = z.infer<typeof DeleteResult>;
