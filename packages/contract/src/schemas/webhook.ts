import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../event-types';
import { component, doc } from '../schema-annotations';
import { isHttpUrl, OUTBOUND_URL_MESSAGE, PageQuery, Pagination } from './common';

/** The subscription value that matches every event type, current and future. */
export const WILDCARD_EVENT = '*' as const;

/** One entry of a webhook's `events` list: a webhook event type or `*`. */
export type WebhookEventSelector = typeof WILDCARD_EVENT | WebhookEventType;

/**
 * What a webhook can subscribe to: `*` and every event type except the stream-only ones
 * (`whatsapp.status` would never fire on a webhook, so subscribing to it is refused).
 */
export const WEBHOOK_EVENT_SELECTORS = [WILDCARD_EVENT, ...WEBHOOK_EVENT_TYPES] as [
  WebhookEventSelector,
  ...WebhookEventSelector[],
];

/** One entry of a webhook's `events` list. */
export const WebhookEventSelector = component(
  'WebhookEventSelector',
  z.enum(WEBHOOK_EVENT_SELECTORS),
  {
    description:
      'An event type, or `*` for every event type, including those added in the future. `whatsapp.status` is delivered on the event stream only and cannot be subscribed to.',
    example: 'message.delivered',
  },
);

/** Longest accepted webhook URL, as browsers and most proxies cap URLs near this size. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/**
 * Shortest accepted caller-supplied signing secret: a shorter one could be brute-forced offline
 * from a single captured signature.
 */
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
/** Longest accepted caller-supplied signing secret. */
export const WEBHOOK_SECRET_MAX_LENGTH = 256;
/** Longest webhook name (spec: up to 100 characters). */
export const WEBHOOK_NAME_MAX_LENGTH = 100;

/** A webhook receiver URL (request side): https only; address safety is checked by the server. */
const WebhookUrlInput = doc(
  z.string().max(WEBHOOK_URL_MAX_LENGTH).refine(isHttpUrl, { message: OUTBOUND_URL_MESSAGE }),
  {
    format: 'uri',
    description:
      'HTTPS URL that receives the signed POST deliveries. Loopback, private, link-local and cloud-metadata addresses are rejected (plain http and private addresses only on a server started with `WEBHOOK_ALLOW_PRIVATE_URLS=true`).',
    example: 'https://example.com/hooks/switchboard',
  },
);

/** The `events` list of a request: non-empty, no duplicates, `*` only on its own. */
const WebhookEventsInput = doc(
  z
    .array(WebhookEventSelector)
    .min(1)
    .superRefine((events, ctx) => {
      const seen = new Set<string>();
      events.forEach((event, index) => {
        if (seen.has(event)) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `"${event}" is listed twice`,
            path: [index],
          });
        }
        seen.add(event);
      });
      // With `*` the set means "everything"; mixing it with named types would make two
      // registrations that mean the same thing look different to the uniqueness check.
      if (seen.has(WILDCARD_EVENT) && seen.size > 1) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: '"*" already covers every event type and must be the only entry',
        });
      }
    }),
  {
    description:
      'Event types to receive (at least one, no duplicates), or `["*"]` for all current and future types.',
    example: ['message.sent', 'message.delivered', 'message.failed'],
  },
);

/** A caller-supplied signing secret. */
const WebhookSecretInput = doc(
  z
    .string()
    .min(WEBHOOK_SECRET_MIN_LENGTH)
    .max(WEBHOOK_SECRET_MAX_LENGTH)
    // Printable ASCII without spaces: secrets get pasted between systems, and a stray space or
    // newline would silently produce signatures nobody can verify.
    .regex(/^[\x21-\x7E]+$/, { message: 'must be printable ASCII without whitespace' }),
  {
    description: `Your own HMAC-SHA256 signing secret, ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} printable ASCII characters. Stored, never echoed. Omit it to have one generated and returned once.`,
    example: 'my-own-signing-secret-0123456789',
  },
);

/** A webhook name on the request side. */
function webhookNameInput() {
  return z.string().min(1).max(WEBHOOK_NAME_MAX_LENGTH);
}

/** `POST /v1/webhooks` and the legacy `PUT /v1/webhooks` body. */
export const CreateWebhookRequest = component(
  'CreateWebhookRequest',
  z
    .object({
      url: WebhookUrlInput,
      events: WebhookEventsInput,
      name: doc(webhookNameInput().optional(), {
        description: `Display name, up to ${WEBHOOK_NAME_MAX_LENGTH} characters.`,
        example: 'Production receiver',
      }),
      secret: WebhookSecretInput.optional(),
    })
    .strict(),
  {
    description: 'A new webhook registration.',
    example: {
      url: 'https://example.com/hooks/switchboard',
      events: ['message.sent', 'message.delivered', 'message.failed'],
      name: 'Production receiver',
    },
  },
);
/** A new webhook registration. */
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

/** The fields `PATCH /v1/webhooks/{id}` can change. */
export const UPDATABLE_WEBHOOK_FIELDS = ['url', 'events', 'secret', 'name', 'active'] as const;

/** `PATCH /v1/webhooks/{id}` body: any of the fields, at least one. */
export const UpdateWebhookRequest = component(
  'UpdateWebhookRequest',
  z
    .object({
      url: WebhookUrlInput.optional(),
      events: WebhookEventsInput.optional(),
      secret: WebhookSecretInput.optional(),
      name: doc(webhookNameInput().nullable().optional(), {
        description: `Display name, up to ${WEBHOOK_NAME_MAX_LENGTH} characters; null clears it.`,
        example: 'Production receiver',
      }),
      active: doc(z.boolean().optional(), {
        description:
          'false pauses deliveries (registration and secret are kept); true resumes them and clears the failure streak.',
        example: false,
      }),
    })
    .strict()
    .refine((body) => UPDATABLE_WEBHOOK_FIELDS.some((field) => body[field] !== undefined), {
      message: `at least one of ${UPDATABLE_WEBHOOK_FIELDS.join(', ')} is required`,
    }),
  {
    description: 'Changes to a webhook registration; at least one field.',
    example: { active: false },
  },
);
/** Changes to a webhook registration. */
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

const WEBHOOK_EXAMPLE = {
  id: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
  name: 'Production receiver',
  url: 'https://example.com/hooks/switchboard',
  events: ['message.sent', 'message.delivered', 'message.failed'],
  active: true,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};

const SECRET_EXAMPLE = 'whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH';

/** The fields every webhook response carries. */
const webhookShape = {
  id: doc(z.string().uuid(), {
    format: 'uuid',
    example: WEBHOOK_EXAMPLE.id,
  }),
  name: doc(z.string().max(WEBHOOK_NAME_MAX_LENGTH).nullable(), {
    description: 'Display name, or null.',
  }),
  url: doc(z.string(), { format: 'uri', description: 'HTTPS receiver URL.' }),
  events: doc(z.array(WebhookEventSelector), {
    description: 'Subscribed event types, or `["*"]`.',
  }),
  active: doc(z.boolean(), {
    description:
      'false when paused by PATCH or deactivated after three consecutive exhausted retry chains.',
  }),
  createdAt: doc(z.string(), { format: 'date-time' }),
  updatedAt: doc(z.string(), { format: 'date-time' }),
};

/** A webhook registration as `GET`, list and `PATCH` return it: never with its secret. */
export const Webhook = component('Webhook', z.object(webhookShape), {
  description: 'A webhook registration. The signing secret is never included.',
  example: WEBHOOK_EXAMPLE,
});
/** A webhook registration. */
export type Webhook = z.infer<typeof Webhook>;

/** A webhook together with its signing secret: the answer of a secret rotation. */
export const WebhookWithSecret = component(
  'WebhookWithSecret',
  z.object({
    ...webhookShape,
    secret: doc(z.string(), {
      description:
        'The signing secret, shown this once: store it now. The HMAC key is this string exactly as given.',
      example: SECRET_EXAMPLE,
    }),
  }),
  {
    description: 'A webhook registration with its signing secret, returned once.',
    example: { ...WEBHOOK_EXAMPLE, secret: SECRET_EXAMPLE },
  },
);
/** A webhook together with its signing secret. */
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

/** The answer of a webhook creation: the secret is present only when Switchboard generated it. */
export const CreatedWebhook = component(
  'CreatedWebhook',
  z.object({
    ...webhookShape,
    secret: doc(z.string().optional(), {
      description:
        'The generated signing secret, shown this once; absent when you supplied your own secret.',
      example: SECRET_EXAMPLE,
    }),
  }),
  {
    description:
      'The new webhook registration; `secret` is included only when it was generated by Switchboard.',
    example: { ...WEBHOOK_EXAMPLE, secret: SECRET_EXAMPLE },
  },
);
/** The answer of a webhook creation. */
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

/** The path of every `/v1/webhooks/{id}` route; kept a plain string so a malformed id answers 404. */
export const WebhookIdParams = z.object({
  id: doc(z.string(), {
    description:
      'Webhook id (UUID). An id that is not a UUID answers 404 `WEBHOOK_NOT_FOUND` like any unknown id.',
    example: WEBHOOK_EXAMPLE.id,
  }),
});

/** `DELETE /v1/webhooks/{id}` answer. */
export const WebhookDeleted = z.object({
  id: doc(z.string().uuid(), { format: 'uuid', example: WEBHOOK_EXAMPLE.id }),
  deleted: z.literal(true),
});
/** `DELETE /v1/webhooks/{id}` answer. */
export type WebhookDeleted = z.infer<typeof WebhookDeleted>;

/** Legacy `DELETE /v1/webhooks` answer. */
export const WebhooksDeactivated = z.object({
  deactivated: doc(z.number().int().min(1), {
    description: 'How many active webhooks were deactivated.',
    example: 1,
  }),
});
/** Legacy `DELETE /v1/webhooks` answer. */
export type WebhooksDeactivated = z.infer<typeof WebhooksDeactivated>;

/** The outcome of a synchronous `webhook.test` delivery. */
export const WebhookTestResult = component(
  'WebhookTestResult',
  z.object({
    eventId: doc(z.string(), {
      description: 'Id of the synthetic `webhook.test` event (`evt_test_…`).',
    }),
    delivered: doc(z.boolean(), { description: 'true when the receiver answered 2xx.' }),
    statusCode: doc(z.number().int().nullable(), {
      description: "The receiver's HTTP status; null when no response arrived.",
    }),
    durationMs: doc(z.number().int().min(0), {
      description: 'Time until the response (or the failure), in milliseconds.',
    }),
    error: doc(z.string().nullable(), {
      description:
        'Why the delivery failed (timeout, connection refused, non-2xx status…); null when delivered.',
    }),
  }),
  {
    description:
      'The outcome of one test delivery, made while the request waits. The attempt is also recorded in the delivery log.',
    example: {
      eventId: 'evt_test_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      delivered: true,
      statusCode: 200,
      durationMs: 182,
      error: null,
    },
  },
);
/** The outcome of a test delivery. */
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;

/** The states of one delivery attempt. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'retrying', 'failed'] as const;

/** The state of one delivery attempt. */
export const WebhookDeliveryStatus = component(
  'WebhookDeliveryStatus',
  z.enum(WEBHOOK_DELIVERY_STATUSES),
  {
    description:
      '`pending`: not attempted yet (queued or in flight). `delivered`: the receiver answered 2xx. `retrying`: this attempt failed and another is scheduled at `nextAttemptAt`. `failed`: this attempt failed and no other follows (terminal 4xx, last attempt of the chain, or a test or redelivery attempt).',
    example: 'delivered',
  },
);
/** The state of one delivery attempt. */
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** What caused a delivery attempt. */
export const WEBHOOK_DELIVERY_TRIGGERS = ['event', 'retry', 'test', 'redelivery'] as const;

const DELIVERY_EXAMPLE = {
  id: '0193a8f3-0d2e-7a41-8c5b-1f2e3d4c5b6a',
  webhookId: WEBHOOK_EXAMPLE.id,
  eventId: 'evt_0193a8f3-0c11-7b2a-9e3f-5a6b7c8d9e0f',
  eventType: 'message.delivered',
  attempt: 1,
  trigger: 'event',
  status: 'delivered',
  statusCode: 200,
  durationMs: 143,
  error: null,
  responseBody: '{"ok":true}',
  createdAt: '2026-11-21T10:00:01.000Z',
  attemptedAt: '2026-11-21T10:00:01.020Z',
  nextAttemptAt: null,
};

/** The fields of one delivery attempt, whoever it went to (a webhook or a `callbackUrl`). */
export const deliveryAttemptShape = {
  eventId: doc(z.string(), {
    description: 'The event delivered (`evt_…`); receivers dedupe on it.',
  }),
  eventType: doc(z.string(), { description: 'The event type, e.g. `message.delivered`.' }),
  attempt: doc(z.number().int().min(1), {
    description:
      '1 for the first attempt of an event, up to 8 after the seven retries; 1 for test and redelivery attempts.',
  }),
  trigger: doc(z.enum(WEBHOOK_DELIVERY_TRIGGERS), {
    description:
      '`event`: first attempt; `retry`: a scheduled retry; `test`: `POST …/test`; `redelivery`: `POST …/redeliver`.',
  }),
  status: WebhookDeliveryStatus,
  statusCode: doc(z.number().int().nullable(), {
    description: "The receiver's HTTP status; null while pending or when no response arrived.",
  }),
  durationMs: doc(z.number().int().min(0).nullable(), {
    description: 'Time until the response or failure; null while pending.',
  }),
  error: doc(z.string().nullable(), {
    description: 'Why the attempt failed (timeout, network error, HTTP status…); null otherwise.',
  }),
  responseBody: doc(z.string().nullable(), {
    description:
      "The start of the receiver's response body as text (UTF-8, at most 1,024 characters), whatever its status; null while pending, when no response arrived, or when it was empty. Kept for the delivery log, as long as the attempt is (`RETENTION_DELIVERY_LOG_DAYS`).",
  }),
  createdAt: doc(z.string(), {
    format: 'date-time',
    description: 'When the attempt was queued.',
  }),
  attemptedAt: doc(z.string().nullable(), {
    format: 'date-time',
    description: 'When the request was sent; null while pending.',
  }),
  nextAttemptAt: doc(z.string().nullable(), {
    format: 'date-time',
    description:
      'When the next attempt is scheduled (status `retrying`, or `pending` waiting its turn); null otherwise.',
  }),
};

/** One attempt to deliver one event to one webhook. */
export const WebhookDelivery = component(
  'WebhookDelivery',
  z.object({
    id: doc(z.string().uuid(), { format: 'uuid', description: 'Delivery attempt id.' }),
    webhookId: doc(z.string().uuid(), { format: 'uuid' }),
    ...deliveryAttemptShape,
  }),
  { description: 'One attempt to deliver one event to one webhook.', example: DELIVERY_EXAMPLE },
);
/** One delivery attempt. */
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** `GET /v1/webhooks/{id}/deliveries` query: a page, optionally filtered. */
export const WebhookDeliveryQuery = PageQuery.extend({
  status: doc(z.enum(WEBHOOK_DELIVERY_STATUSES).optional(), {
    description: 'Only attempts in this state.',
  }),
  eventId: doc(z.string().min(1).optional(), {
    description: 'Only attempts of this event (`evt_…`).',
  }),
}).strict();
/** Delivery log query. */
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuery>;

/** A page of delivery attempts, newest first. */
export const WebhookDeliveryList = component(
  'WebhookDeliveryList',
  z.object({ deliveries: z.array(WebhookDelivery), pagination: Pagination }),
  {
    description: 'Delivery attempts of one webhook, newest first.',
    example: {
      deliveries: [DELIVERY_EXAMPLE],
      pagination: { hasMore: false, nextCursor: null },
    },
  },
);
/** A page of delivery attempts. */
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/** The path of `POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver`. */
export const WebhookDeliveryParams = WebhookIdParams.extend({
  deliveryId: doc(z.string(), {
    description: 'Delivery attempt id (UUID); any attempt of the event can be named.',
    example: DELIVERY_EXAMPLE.id,
  }),
});
