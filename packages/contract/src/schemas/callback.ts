import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Pagination } from './common';
import { deliveryAttemptShape, WebhookDeliveryQuery } from './webhook';

const CALLBACK_SECRET_EXAMPLE = 'whsec_cb_4f9a0c1e7b2d8a3f6e5c4b1a0d9e8f7c';

/** The customer's signing secret of `callbackUrl` deliveries. */
export const CallbackSecret = component(
  'CallbackSecret',
  z.object({
    secret: doc(z.string(), {
      description:
        "The HMAC-SHA256 key of every `callbackUrl` delivery (the `X-Signature` header), this string exactly as given. Verified like a webhook's.",
      example: CALLBACK_SECRET_EXAMPLE,
    }),
    createdAt: doc(z.string(), {
      format: 'date-time',
      description: 'When this secret was made (by the first use, or by the last rotation).',
    }),
  }),
  {
    description: 'The signing secret of your per-message `callbackUrl` deliveries.',
    example: { secret: CALLBACK_SECRET_EXAMPLE, createdAt: '2026-11-21T10:00:00.000Z' },
  },
);
/** The callback signing secret. */
export type CallbackSecret = z.infer<typeof CallbackSecret>;

const CALLBACK_DELIVERY_EXAMPLE = {
  id: '0193a8f3-0d2e-7a41-8c5b-1f2e3d4c5b6b',
  url: 'https://example.com/hooks/message-status',
  eventId: 'evt_0193a8f3-0c11-7b2a-9e3f-5a6b7c8d9e0f',
  eventType: 'message.delivered',
  attempt: 1,
  trigger: 'event',
  status: 'delivered',
  statusCode: 200,
  durationMs: 98,
  error: null,
  responseBody: 'ok',
  createdAt: '2026-11-21T10:00:01.000Z',
  attemptedAt: '2026-11-21T10:00:01.020Z',
  nextAttemptAt: null,
};

/** One attempt to deliver one event to a message's `callbackUrl`. */
export const CallbackDelivery = component(
  'CallbackDelivery',
  z.object({
    id: doc(z.string().uuid(), { format: 'uuid', description: 'Delivery attempt id.' }),
    url: doc(z.string(), { description: 'The `callbackUrl` of the message, as stored.' }),
    ...deliveryAttemptShape,
  }),
  {
    description: "One attempt to deliver one event to a message's `callbackUrl`.",
    example: CALLBACK_DELIVERY_EXAMPLE,
  },
);
/** One callback delivery attempt. */
export type CallbackDelivery = z.infer<typeof CallbackDelivery>;

/** `GET /v1/callbacks/deliveries` query: a page, optionally filtered (as a webhook's log). */
export const CallbackDeliveryQuery = WebhookDeliveryQuery;
/** Callback delivery log query. */
export type CallbackDeliveryQuery = z.infer<typeof CallbackDeliveryQuery>;

/** A page of callback delivery attempts, newest first. */
export const CallbackDeliveryList = component(
  'CallbackDeliveryList',
  z.object({ deliveries: z.array(CallbackDelivery), pagination: Pagination }),
  {
    description: "Delivery attempts to your messages' `callbackUrl`s, newest first.",
    example: {
      deliveries: [CALLBACK_DELIVERY_EXAMPLE],
      pagination: { hasMore: false, nextCursor: null },
    },
  },
);
/** A page of callback delivery attempts. */
export type CallbackDeliveryList = z.infer<typeof CallbackDeliveryList>;
