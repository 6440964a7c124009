import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, envelope, errors } from '../schemas/common';
import {
  CreatedWebhook,
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDeleted,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookDeliveryQuery,
  WebhookIdParams,
  WebhooksDeactivated,
  WebhookTestResult,
  WebhookWithSecret,
} from '../schemas/webhook';

const tag = { tag: 'Webhooks' } satisfies RouteMetadata;
const legacyTag = { tag: 'Webhooks (legacy)', deprecated: true } satisfies RouteMetadata;

/**
 * The deprecated single-webhook endpoints. They keep working and act on the customer's oldest
 * active webhook; `WEBHOOK_NOT_CONFIGURED` answers when there is none.
 */
const legacyWebhooksContract = c.router(
  {
    get: {
      method: 'GET',
      path: '/v1/webhooks',
      summary: 'Get the webhook (legacy)',
      description:
        'Deprecated: use `GET /v1/webhooks/list`. Returns the oldest active webhook, without its secret, or null when none is active.',
      deprecated: true,
      responses: { 200: envelope(Webhook.nullable()) },
      metadata: legacyTag,
    },
    put: {
      method: 'PUT',
      path: '/v1/webhooks',
      summary: 'Replace the webhook (legacy)',
      description:
        'Deprecated: use `POST /v1/webhooks`. Deactivates every active webhook and registers a new one from the body. `secret` is included in the answer only when it was generated.',
      deprecated: true,
      body: CreateWebhookRequest,
      responses: { 200: envelope(CreatedWebhook), ...errors('VALIDATION_ERROR') },
      metadata: legacyTag,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/webhooks',
      summary: 'Deactivate all webhooks (legacy)',
      description:
        'Deprecated: use `DELETE /v1/webhooks/{id}`. Deactivates every active webhook (registrations and secrets are kept) and returns how many.',
      deprecated: true,
      body: c.noBody(),
      responses: {
        200: envelope(WebhooksDeactivated),
        ...errors('WEBHOOK_NOT_CONFIGURED'),
      },
      metadata: legacyTag,
    },
    test: {
      method: 'POST',
      path: '/v1/webhooks/test',
      summary: 'Test the webhook (legacy)',
      description:
        'Deprecated: use `POST /v1/webhooks/{id}/test`. Delivers a synthetic `webhook.test` event to the oldest active webhook and reports the outcome.',
      deprecated: true,
      body: c.noBody(),
      responses: {
        200: envelope(WebhookTestResult),
        ...errors('WEBHOOK_NOT_CONFIGURED'),
      },
      metadata: legacyTag,
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/webhooks/rotate-secret',
      summary: 'Rotate the webhook secret (legacy)',
      description:
        'Deprecated: use `POST /v1/webhooks/{id}/rotate-secret`. Replaces the signing secret of the oldest active webhook; the old secret stops working immediately.',
      deprecated: true,
      body: c.noBody(),
      responses: {
        200: envelope(WebhookWithSecret),
        ...errors('WEBHOOK_NOT_CONFIGURED'),
      },
      metadata: legacyTag,
    },
  },
  { commonResponses },
);

/** Webhook registrations, their test deliveries and delivery log, and the legacy endpoints. */
export const webhooksContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/webhooks',
      summary: 'Register a webhook',
      description:
        'Registers an HTTPS URL for the listed event types (`*` for all, including future ones). The answer includes `secret` only when Switchboard generated it: store it, it is never shown again. (url, event set) is unique among active webhooks.',
      body: CreateWebhookRequest,
      responses: {
        201: envelope(CreatedWebhook),
        ...errors('VALIDATION_ERROR', 'WEBHOOK_DUPLICATE'),
      },
      metadata: tag,
    },
    list: {
      method: 'GET',
      path: '/v1/webhooks/list',
      summary: 'List webhooks',
      description: 'Every webhook of the customer, active or not, oldest first, without secrets.',
      responses: { 200: envelope(z.array(Webhook)) },
      metadata: tag,
    },
    get: {
      method: 'GET',
      path: '/v1/webhooks/:id',
      summary: 'Get a webhook',
      description: 'One webhook, without its secret.',
      pathParams: WebhookIdParams,
      responses: { 200: envelope(Webhook), ...errors('WEBHOOK_NOT_FOUND') },
      metadata: tag,
    },
    update: {
      method: 'PATCH',
      path: '/v1/webhooks/:id',
      summary: 'Update a webhook',
      description:
        'Changes any of `url`, `events`, `secret`, `name` and `active` (at least one). `active: false` pauses deliveries and keeps the registration; `active: true` resumes them. A supplied `secret` replaces the current one immediately and is not echoed.',
      pathParams: WebhookIdParams,
      body: UpdateWebhookRequest,
      responses: {
        200: envelope(Webhook),
        ...errors('VALIDATION_ERROR', 'WEBHOOK_NOT_FOUND', 'WEBHOOK_DUPLICATE'),
      },
      metadata: tag,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/webhooks/:id',
      summary: 'Delete a webhook',
      description: 'Deletes the registration; pending deliveries and retries to it are cancelled.',
      pathParams: WebhookIdParams,
      body: c.noBody(),
      responses: { 200: envelope(WebhookDeleted), ...errors('WEBHOOK_NOT_FOUND') },
      metadata: tag,
    },
    test: {
      method: 'POST',
      path: '/v1/webhooks/:id/test',
      summary: 'Send a test event',
      description:
        'Delivers a synthetic `webhook.test` event (id `evt_test_…`), signed with this webhook’s secret, while the request waits, and reports the outcome. One attempt, no retries; works on inactive webhooks too; recorded in the delivery log.',
      pathParams: WebhookIdParams,
      body: c.noBody(),
      responses: { 200: envelope(WebhookTestResult), ...errors('WEBHOOK_NOT_FOUND') },
      metadata: tag,
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/webhooks/:id/rotate-secret',
      summary: 'Rotate the signing secret',
      description:
        'Generates a new signing secret and returns it once. The old secret stops working immediately, including for retries already scheduled.',
      pathParams: WebhookIdParams,
      body: c.noBody(),
      responses: { 200: envelope(WebhookWithSecret), ...errors('WEBHOOK_NOT_FOUND') },
      metadata: tag,
    },
    listDeliveries: {
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries',
      summary: 'List delivery attempts',
      description:
        'The recent delivery attempts of this webhook, newest first: each attempt with its outcome, status code, duration and error, and when the next retry is due.',
      pathParams: WebhookIdParams,
      query: WebhookDeliveryQuery,
      responses: {
        200: envelope(WebhookDeliveryList),
        ...errors('VALIDATION_ERROR', 'WEBHOOK_NOT_FOUND'),
      },
      metadata: tag,
    },
    redeliver: {
      method: 'POST',
      path: '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
      summary: 'Redeliver an event',
      description:
        'Sends the event of that attempt to this webhook again, with the same event id (receivers deduplicate on it) and a fresh signature. One attempt, queued now; follow it in the delivery log. Works on inactive webhooks too.',
      pathParams: WebhookDeliveryParams,
      body: c.noBody(),
      responses: {
        202: envelope(WebhookDelivery),
        ...errors('WEBHOOK_NOT_FOUND', 'NOT_FOUND'),
      },
      metadata: tag,
    },
    legacy: legacyWebhooksContract,
  },
  { commonResponses },
);
