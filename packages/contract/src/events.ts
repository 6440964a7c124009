import { z } from 'zod';
import { EVENT_EXAMPLES } from './event-examples';
import {
  type EnvelopeEventType,
  EVENT_TYPES,
  type EventType,
  WEBHOOK_EVENT_TYPES,
} from './event-types';
import { component, doc, extendApi } from './schema-annotations';
import {
  ChatEventData,
  ChatParticipantEventData,
  ChatTitleChangedData,
} from './schemas/chat-event-data';
import { Timestamp, Uuid } from './schemas/common';
import { EventId, eventAddress } from './schemas/event-fields';
import {
  MessageAudioKeptData,
  MessageInboundData,
  MessageReactionData,
  TypingIndicatorData,
} from './schemas/inbound-event-data';
import {
  MessageEditedData,
  MessageEditFailedData,
  MessageFallbackData,
  MessageLifecycleData,
} from './schemas/message-event-data';
import { ContactOptOutData } from './schemas/opt-out';
import { WhatsAppStatusData } from './schemas/whatsapp-session';

/** Data of `webhook.test`. */
export const WebhookTestData = component(
  'WebhookTestData',
  z.object({
    message: z.string(),
    webhookId: Uuid,
  }),
  { description: 'A synthetic event sent by `POST /v1/webhooks/{id}/test`.' },
);
/** Data of `webhook.test`. */
export type WebhookTestData = z.infer<typeof WebhookTestData>;

/**
 * Builds the schema of an enveloped event: `{id: evt_…, type, timestamp, data}`.
 * @example const Sent = EventEnvelope('message.sent', MessageLifecycleData);
 */
export function EventEnvelope<T extends EnvelopeEventType, D extends z.ZodTypeAny>(
  type: T,
  data: D,
) {
  return z.object({ id: EventId, type: z.literal(type), timestamp: Timestamp, data });
}

/** `message.queued` → `MessageQueuedEvent`: the OpenAPI component name of an event. */
export function eventComponentName(type: EventType): string {
  const words = type.split(/[._]/).map((word) => {
    if (word === 'whatsapp') return 'WhatsApp';
    if (word === 'facetime') return 'FaceTime';
    return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
  });
  return `${words.join('')}Event`;
}

/** An enveloped event's schema, registered as a component with its description and example. */
function envelopedEvent<T extends EnvelopeEventType, D extends z.ZodTypeAny>(
  type: T,
  data: D,
  description: string,
) {
  return component(eventComponentName(type), EventEnvelope(type, data), {
    description,
    example: EVENT_EXAMPLES[type],
  });
}

/** `message.queued`. */
export const MessageQueuedEvent = envelopedEvent(
  'message.queued',
  MessageLifecycleData,
  'A send was accepted, or a scheduled send became due, and waits for a channel.',
);
/** `message.sent`. */
export const MessageSentEvent = envelopedEvent(
  'message.sent',
  MessageLifecycleData,
  'The message was handed to the carrier or provider (the only reliable success signal on sms).',
);
/** `message.delivered`. */
export const MessageDeliveredEvent = envelopedEvent(
  'message.delivered',
  MessageLifecycleData,
  'The message reached the recipient’s device (imessage, whatsapp; best-effort on sms).',
);
/** `message.read`. */
export const MessageReadEvent = envelopedEvent(
  'message.read',
  MessageLifecycleData,
  'The recipient read the message (when they have read receipts on; never on sms).',
);
/** `message.failed`. */
export const MessageFailedEvent = envelopedEvent(
  'message.failed',
  MessageLifecycleData,
  'The message could not be delivered; `errorCode` and `errorMessage` say why.',
);
/** `message.fallback`. */
export const MessageFallbackEvent = envelopedEvent(
  'message.fallback',
  MessageFallbackData,
  'The send moved on to the next channel of its routing preference.',
);
/** `message.inbound`. */
export const MessageInboundEvent = envelopedEvent(
  'message.inbound',
  MessageInboundData,
  'A message arrived at one of your addresses.',
);
/** `message.reaction`. */
export const MessageReactionEvent = envelopedEvent(
  'message.reaction',
  MessageReactionData,
  'A contact added or removed a reaction.',
);
/** `message.audio_kept`. */
export const MessageAudioKeptEvent = envelopedEvent(
  'message.audio_kept',
  MessageAudioKeptData,
  'A contact kept a voice note you sent (imessage).',
);
/** `message.unsent`. */
export const MessageUnsentEvent = envelopedEvent(
  'message.unsent',
  MessageLifecycleData,
  'A message was unsent.',
);
/** `message.edited`. */
export const MessageEditedEvent = envelopedEvent(
  'message.edited',
  MessageEditedData,
  'A message was edited.',
);
/** `message.edit_failed`. */
export const MessageEditFailedEvent = envelopedEvent(
  'message.edit_failed',
  MessageEditFailedData,
  'An edit could not complete.',
);
/** `message.deleted`. */
export const MessageDeletedEvent = envelopedEvent(
  'message.deleted',
  MessageLifecycleData,
  'A message was soft-deleted.',
);
/** `message.scheduled`. */
export const MessageScheduledEvent = envelopedEvent(
  'message.scheduled',
  MessageLifecycleData,
  'A scheduled send was accepted.',
);
/** `message.schedule_cancelled`. */
export const MessageScheduleCancelledEvent = envelopedEvent(
  'message.schedule_cancelled',
  MessageLifecycleData,
  'A scheduled send was cancelled; the message is now `cancelled`.',
);
/** `typing.indicator`. */
export const TypingIndicatorEvent = envelopedEvent(
  'typing.indicator',
  TypingIndicatorData,
  'A contact started or stopped typing (whatsapp).',
);
/** `chat.participant.added`. */
export const ChatParticipantAddedEvent = envelopedEvent(
  'chat.participant.added',
  ChatParticipantEventData,
  'A member was added to a group chat.',
);
/** `chat.participant.left`. */
export const ChatParticipantLeftEvent = envelopedEvent(
  'chat.participant.left',
  ChatParticipantEventData,
  'A member left or was removed from a group chat.',
);
/** `chat.title.changed`. */
export const ChatTitleChangedEvent = envelopedEvent(
  'chat.title.changed',
  ChatTitleChangedData,
  'A group chat was renamed.',
);
/** `chat.photo.changed`. */
export const ChatPhotoChangedEvent = envelopedEvent(
  'chat.photo.changed',
  ChatEventData,
  'A group chat’s photo changed.',
);
/** `contact.opted_out`. */
export const ContactOptedOutEvent = envelopedEvent(
  'contact.opted_out',
  ContactOptOutData,
  'A recipient texted STOP to one of your numbers (or the upstream reported an opt-out): sends from that number to them are refused.',
);
/** `contact.opted_in`. */
export const ContactOptedInEvent = envelopedEvent(
  'contact.opted_in',
  ContactOptOutData,
  'A recipient who had opted out texted START: sends reach them again.',
);
/** `webhook.test`: its id starts with `evt_test_`. */
export const WebhookTestEvent = component(
  eventComponentName('webhook.test'),
  EventEnvelope('webhook.test', WebhookTestData).extend({
    id: doc(z.string().regex(/^evt_test_[\w-]+$/), {
      description: 'Test event id, `evt_test_…`.',
      example: 'evt_test_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
    }),
  }),
  {
    description:
      'A synthetic event from `POST /v1/webhooks/{id}/test`, signed with that webhook’s secret.',
    example: EVENT_EXAMPLES['webhook.test'],
  },
);
/** `whatsapp.status` (event stream only). */
export const WhatsAppStatusEvent = envelopedEvent(
  'whatsapp.status',
  WhatsAppStatusData,
  'A WhatsApp session changed state. Delivered on the event stream only.',
);

/**
 * The data schema of every enveloped event type, taken from the event schemas themselves; the
 * server validates what it emits with it.
 */
export const EVENT_DATA_SCHEMAS = {
  'message.queued': MessageQueuedEvent.shape.data,
  'message.sent': MessageSentEvent.shape.data,
  'message.delivered': MessageDeliveredEvent.shape.data,
  'message.read': MessageReadEvent.shape.data,
  'message.failed': MessageFailedEvent.shape.data,
  'message.fallback': MessageFallbackEvent.shape.data,
  'message.inbound': MessageInboundEvent.shape.data,
  'message.reaction': MessageReactionEvent.shape.data,
  'message.audio_kept': MessageAudioKeptEvent.shape.data,
  'message.unsent': MessageUnsentEvent.shape.data,
  'message.edited': MessageEditedEvent.shape.data,
  'message.edit_failed': MessageEditFailedEvent.shape.data,
  'message.deleted': MessageDeletedEvent.shape.data,
  'message.scheduled': MessageScheduledEvent.shape.data,
  'message.schedule_cancelled': MessageScheduleCancelledEvent.shape.data,
  'typing.indicator': TypingIndicatorEvent.shape.data,
  'chat.participant.added': ChatParticipantAddedEvent.shape.data,
  'chat.participant.left': ChatParticipantLeftEvent.shape.data,
  'chat.title.changed': ChatTitleChangedEvent.shape.data,
  'chat.photo.changed': ChatPhotoChangedEvent.shape.data,
  'contact.opted_out': ContactOptedOutEvent.shape.data,
  'contact.opted_in': ContactOptedInEvent.shape.data,
  'webhook.test': WebhookTestEvent.shape.data,
  'whatsapp.status': WhatsAppStatusEvent.shape.data,
} as const satisfies Record<EnvelopeEventType, z.ZodTypeAny>;

/** The `data` of an enveloped event type. */
export type EventData<T extends EnvelopeEventType> = z.infer<(typeof EVENT_DATA_SCHEMAS)[T]>;

/** The FaceTime call states. */
export const FaceTimeCallStatus = doc(
  z.enum(['incoming', 'answered', 'disconnected', 'missed', 'rejected', 'failed']),
  { description: 'State of a FaceTime call.' },
);
/** A FaceTime call state. */
export type FaceTimeCallStatus = z.infer<typeof FaceTimeCallStatus>;

const faceTimeShape = {
  eventId: EventId,
  callUuid: doc(z.string().min(1), {
    description: 'Identifies the call across its events.',
    example: '6F1C2A9E-3B4D-4E5F-8A7B-9C0D1E2F3A4B',
  }),
  to: eventAddress('The instance address called.', '+14155550100'),
  isAudio: doc(z.boolean(), { description: 'True for an audio call (then `isVideo` is false).' }),
  isVideo: doc(z.boolean(), { description: 'True for a video call (then `isAudio` is false).' }),
};

/** `facetime.incoming`: a flat body, not an envelope. */
export const FaceTimeIncomingEvent = component(
  eventComponentName('facetime.incoming'),
  z.object({
    type: z.literal('facetime.incoming'),
    ...faceTimeShape,
    caller: eventAddress('The other party.', '+14155550123'),
    timestamp: doc(z.number().int().nonnegative(), {
      description: 'When the call came in, Unix epoch milliseconds.',
      example: 1795255200000,
    }),
  }),
  {
    description: 'A FaceTime call is ringing. The body is flat (no `data`); dedupe on `eventId`.',
    example: EVENT_EXAMPLES['facetime.incoming'],
  },
);
/** A `facetime.incoming` body. */
export type FaceTimeIncomingEvent = z.infer<typeof FaceTimeIncomingEvent>;

/** `facetime.status_changed`: a flat body, not an envelope. */
export const FaceTimeStatusChangedEvent = component(
  eventComponentName('facetime.status_changed'),
  z.object({
    type: z.literal('facetime.status_changed'),
    ...faceTimeShape,
    address: eventAddress('The other party.', '+14155550123'),
    status: FaceTimeCallStatus,
    isOutgoing: doc(z.boolean(), { description: 'True when your instance placed the call.' }),
  }),
  {
    description:
      'A FaceTime call changed state. The body is flat (no `data`); dedupe on `eventId`.',
    example: EVENT_EXAMPLES['facetime.status_changed'],
  },
);
/** A `facetime.status_changed` body. */
export type FaceTimeStatusChangedEvent = z.infer<typeof FaceTimeStatusChangedEvent>;

const WEBHOOK_EVENT_SCHEMAS = [
  MessageQueuedEvent,
  MessageSentEvent,
  MessageDeliveredEvent,
  MessageReadEvent,
  MessageFailedEvent,
  MessageFallbackEvent,
  MessageInboundEvent,
  MessageReactionEvent,
  MessageAudioKeptEvent,
  MessageUnsentEvent,
  MessageEditedEvent,
  MessageEditFailedEvent,
  MessageDeletedEvent,
  MessageScheduledEvent,
  MessageScheduleCancelledEvent,
  TypingIndicatorEvent,
  ChatParticipantAddedEvent,
  ChatParticipantLeftEvent,
  ChatTitleChangedEvent,
  ChatPhotoChangedEvent,
  FaceTimeIncomingEvent,
  FaceTimeStatusChangedEvent,
  ContactOptedOutEvent,
  ContactOptedInEvent,
  WebhookTestEvent,
] as const;

/**
 * Adds the discriminator mapping (event type → component) to a union's OpenAPI schema, so code
 * generators resolve members by `type` instead of by component name.
 */
function withDiscriminatorMapping<T extends z.ZodTypeAny>(
  union: T,
  types: readonly EventType[],
): T {
  const mapping = Object.fromEntries(
    types.map((type) => [type, `#/components/schemas/${eventComponentName(type)}`]),
  );
  return extendApi(union, { discriminator: { propertyName: 'type', mapping } });
}

/** Every event exactly as webhooks and the event stream deliver it, discriminated on `type`. */
export const SwitchboardEvent = component(
  'Event',
  withDiscriminatorMapping(
    z.discriminatedUnion('type', [...WEBHOOK_EVENT_SCHEMAS, WhatsAppStatusEvent]),
    EVENT_TYPES,
  ),
  {
    description:
      'An event, as a webhook body or an event-stream `data:` frame: an envelope `{id, type, timestamp, data}`, except the flat FaceTime bodies.',
    example: EVENT_EXAMPLES['message.sent'],
  },
);
/** An event as delivered on webhooks and the stream. */
export type SwitchboardEvent = z.infer<typeof SwitchboardEvent>;

/** Every event a webhook can receive (all but the stream-only `whatsapp.status`). */
export const WebhookEvent = component(
  'WebhookEvent',
  withDiscriminatorMapping(
    z.discriminatedUnion('type', WEBHOOK_EVENT_SCHEMAS),
    WEBHOOK_EVENT_TYPES,
  ),
  {
    description: 'An event as a webhook delivers it (every event but `whatsapp.status`).',
    example: EVENT_EXAMPLES['message.inbound'],
  },
);
/** An event as delivered to a webhook. */
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** The event of one type. @example type Sent = SwitchboardEventOf<'message.sent'>; */
export type SwitchboardEventOf<T extends EventType> = Extract<SwitchboardEvent, { type: T }>;
