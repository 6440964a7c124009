import { z } from 'zod';
import { EVENT_TYPES } from '../event-types';
import { component, doc } from '../schema-annotations';
import { CallbackDelivery } from './callback';
import { PageQuery, Pagination } from './common';
import { EventId } from './event-fields';
import { WebhookDelivery } from './webhook';

/** `GET /v1/messages/{id}/events` query: a page, oldest event first. */
export const MessageEventsQuery = PageQuery.strict();
/** `GET /v1/messages/{id}/events` query. */
export type MessageEventsQuery = z.infer<typeof MessageEventsQuery>;

const WEBHOOK_ID_EXAMPLE = '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f';
const EVENT_ID_EXAMPLE = 'evt_0193a8f3-0c11-7b2a-9e3f-5a6b7c8d9e0f';

/** One webhook's delivery of one event: the webhook and every attempt it took. */
export const MessageEventWebhook = component(
  'MessageEventWebhook',
  z.object({
    webhookId: doc(z.string().uuid(), { format: 'uuid', example: WEBHOOK_ID_EXAMPLE }),
    url: doc(z.string(), {
      format: 'uri',
      description: "The webhook's receiver URL now.",
      example: 'https://example.com/hooks/switchboard',
    }),
    attempts: doc(z.array(WebhookDelivery), {
      description:
        "Every attempt of this event to this webhook, oldest first, as the webhook's delivery log lists them (first attempt, retries, redeliveries).",
    }),
  }),
  { description: 'The delivery of one event to one webhook, with its attempts.' },
);
/** One webhook's delivery of one event. */
export type MessageEventWebhook = z.infer<typeof MessageEventWebhook>;

/** One event a message emitted, with its deliveries. */
export const MessageEvent = component(
  'MessageEvent',
  z.object({
    id: EventId,
    type: doc(z.enum(EVENT_TYPES), {
      description: 'The event type, e.g. `message.delivered`.',
      example: 'message.delivered',
    }),
    createdAt: doc(z.string(), { format: 'date-time', description: 'When it was recorded.' }),
    webhooks: doc(z.array(MessageEventWebhook), {
      description:
        'Each webhook the event was delivered to, in the order of its first attempt; empty when no webhook subscribed to it (or the webhook was deleted since, with its log).',
    }),
    callbackDeliveries: doc(z.array(CallbackDelivery), {
      description: "The attempts to the message's `callbackUrl`, oldest first; empty without one.",
    }),
  }),
  {
    description: 'An event the message emitted, and every attempt to deliver it.',
    example: {
      id: EVENT_ID_EXAMPLE,
      type: 'message.delivered',
      createdAt: '2026-11-21T10:00:01.000Z',
      webhooks: [
        {
          webhookId: WEBHOOK_ID_EXAMPLE,
          url: 'https://example.com/hooks/switchboard',
          attempts: [
            {
              id: '0193a8f3-0d2e-7a41-8c5b-1f2e3d4c5b6a',
              webhookId: WEBHOOK_ID_EXAMPLE,
              eventId: EVENT_ID_EXAMPLE,
              eventType: 'message.delivered',
              attempt: 1,
              trigger: 'event',
              status: 'delivered',
              statusCode: 200,
              durationMs: 143,
              error: null,
              responseBody: 'ok',
              createdAt: '2026-11-21T10:00:01.000Z',
              attemptedAt: '2026-11-21T10:00:01.020Z',
              nextAttemptAt: null,
            },
          ],
        },
      ],
      callbackDeliveries: [],
    },
  },
);
/** One event a message emitted, with its deliveries. */
export type MessageEvent = z.infer<typeof MessageEvent>;

/** A page of a message's events, oldest first. */
export const MessageEventList = component(
  'MessageEventList',
  z.object({ events: z.array(MessageEvent), pagination: Pagination }),
  { description: "A page of a message's events, oldest first, each with its deliveries." },
);
/** A page of a message's events. */
export type MessageEventList = z.infer<typeof MessageEventList>;
