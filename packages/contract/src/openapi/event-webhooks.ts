import { generateSchema } from '@anatine/zod-openapi';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../event-types';
import { eventComponentName, SwitchboardEvent } from '../events';
import { hoistComponents, type JsonObject } from './json-schema';

/**
 * Registers the event schemas (the `Event` union, one component per event type and their data)
 * in the document's component registry. No JSON operation returns an event (webhooks POST them,
 * the stream frames them), so the route walk never meets them. The `WebhookEvent` union is not
 * a component: each webhook operation references its own event type, and a union nothing
 * references would only be an unused component.
 */
export function registerEventComponents(registry: JsonObject): void {
  hoistComponents(generateSchema(SwitchboardEvent, true) as JsonObject, registry);
}

const SIGNATURE_HEADERS = [
  {
    name: 'X-Signature',
    description:
      '`sha256=` and the lowercase hex HMAC-SHA256, keyed with the webhook’s secret, of `<X-Timestamp>.<raw body>`. Compare in constant time.',
    example: 'sha256=5f8c2a5e0b7d4c3f9a1e6b2d8c4f0a7e3b9d1c5f7a2e4b6d8c0f1a3e5b7d9c2f',
  },
  {
    name: 'X-Timestamp',
    description: 'Unix seconds of the delivery; reject it when more than 300 seconds from now.',
    example: '1795255200',
  },
  {
    name: 'X-Correlation-Id',
    description: 'Correlation id of the request that caused the event (`cor_…`).',
    example: 'cor_4f1c2a9e3b4d4e5f8a7b9c0d1e2f3a4b',
  },
];

function webhookOperation(type: WebhookEventType): JsonObject {
  return {
    summary: type,
    description: `Switchboard POSTs a \`${type}\` event to every active webhook subscribed to it or to \`*\`. Answer 2xx within 10 seconds; 408, 429, 5xx and network errors are retried, any other 4xx is final. Deduplicate on the event id.`,
    operationId: `webhook${eventComponentName(type).replace(/Event$/, '')}`,
    tags: ['Webhooks'],
    security: [],
    parameters: SIGNATURE_HEADERS.map(({ name, description, example }) => ({
      name,
      in: 'header',
      required: true,
      description,
      schema: { type: 'string', example },
    })),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${eventComponentName(type)}` },
        },
      },
    },
    responses: { '200': { description: 'Received (any 2xx status counts).' } },
  };
}

/**
 * The OpenAPI 3.1 `webhooks` object: one entry per event type a webhook can receive, describing
 * the signed POST a receiver gets.
 */
export function eventWebhooks(): JsonObject {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [type, { post: webhookOperation(type) }]),
  );
}
