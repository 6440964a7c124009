import { z } from 'zod';
import { doc } from './schema-annotations';

/** Every event type Switchboard emits, on webhooks and on the event stream. */
export const EVENT_TYPES = [
  'message.queued',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.fallback',
  'message.inbound',
  'message.reaction',
  'message.audio_kept',
  'message.unsent',
  'message.edited',
  'message.edit_failed',
  'message.deleted',
  'message.scheduled',
  'message.schedule_cancelled',
  'typing.indicator',
  'chat.participant.added',
  'chat.participant.left',
  'chat.title.changed',
  'chat.photo.changed',
  'facetime.incoming',
  'facetime.status_changed',
  'contact.opted_out',
  'contact.opted_in',
  'webhook.test',
  'whatsapp.status',
] as const;
/** An event type. */
export type EventType = (typeof EVENT_TYPES)[number];

/** The event types delivered on the event stream only, never to webhooks. */
export const STREAM_ONLY_EVENT_TYPES = ['whatsapp.status'] as const;
/** An event type that a webhook can receive. */
export type WebhookEventType = Exclude<EventType, (typeof STREAM_ONLY_EVENT_TYPES)[number]>;

function isWebhookEventType(type: EventType): type is WebhookEventType {
  return !(STREAM_ONLY_EVENT_TYPES as readonly EventType[]).includes(type);
}

/** Every event type a webhook can receive: all but the stream-only `whatsapp.status`. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] =
  EVENT_TYPES.filter(isWebhookEventType);

/** The event types whose bodies are flat (spec: FaceTime), not wrapped in the envelope's `data`. */
export const FLAT_EVENT_TYPES = ['facetime.incoming', 'facetime.status_changed'] as const;
/** An event type delivered as an envelope `{id, type, timestamp, data}`. */
export type EnvelopeEventType = Exclude<EventType, (typeof FLAT_EVENT_TYPES)[number]>;

/** True when `value` is one of {@link EVENT_TYPES}. */
export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** A parsed `events` filter of the event stream: `'*'` for every type, or the listed types. */
export type EventFilter = '*' | EventType[];

/** True when an event of `type` passes the stream filter. */
export function matchesEventFilter(filter: EventFilter, type: EventType): boolean {
  return filter === '*' || filter.includes(type);
}

/** Query of `GET /v1/events`: `events` becomes an {@link EventFilter}. */
export const EventStreamQuery = z.object({
  events: doc(
    z
      .string()
      .optional()
      .transform((value, ctx): EventFilter => {
        if (value === undefined) return '*';
        const items = value.split(',').map((item) => item.trim());
        if (items.some((item) => item === '')) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: 'must be a comma-separated list of event types, or *',
          });
          return z.NEVER;
        }
        if (items.includes('*')) return '*';
        const unknown = items.filter((item) => !isEventType(item));
        if (unknown.length > 0) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `unknown event type ${unknown.map((item) => `"${item}"`).join(', ')}`,
          });
          return z.NEVER;
        }
        return [...new Set(items as EventType[])];
      }),
    {
      description:
        'Comma-separated event types to receive, or `*` (the default) for all, `whatsapp.status` included.',
      example: 'message.inbound,message.delivered',
    },
  ),
});
/** The parsed query of the event stream. */
export type EventStreamQuery = z.infer<typeof EventStreamQuery>;
