import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { CallbackDeliveryList, CallbackDeliveryQuery, CallbackSecret } from '../schemas/callback';
import { commonResponses, envelope, errors } from '../schemas/common';

const tag = { tag: 'Callbacks' } satisfies RouteMetadata;

/** Per-message `callbackUrl` deliveries: their signing secret and their delivery log. */
export const callbacksContract = c.router(
  {
    getSecret: {
      method: 'GET',
      path: '/v1/callbacks/secret',
      summary: 'Get the callback signing secret',
      description:
        "The secret every `callbackUrl` delivery is signed with (`X-Signature`, verified exactly like a webhook's). Made on first use; when you had an active webhook then, it starts as that webhook's secret, so receivers that verified callbacks before keep working.",
      responses: { 200: envelope(CallbackSecret) },
      metadata: tag,
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/callbacks/secret/rotate',
      summary: 'Rotate the callback signing secret',
      description:
        'Makes a new callback signing secret and returns it. The old one stops signing immediately, including retries already scheduled.',
      body: c.noBody(),
      responses: { 200: envelope(CallbackSecret) },
      metadata: tag,
    },
    listDeliveries: {
      method: 'GET',
      path: '/v1/callbacks/deliveries',
      summary: 'List callback delivery attempts',
      description:
        "Attempts to deliver your messages' events to their `callbackUrl`s, newest first: each with its URL, outcome, status code, duration and error, and when the next retry is due.",
      query: CallbackDeliveryQuery,
      responses: { 200: envelope(CallbackDeliveryList), ...errors('VALIDATION_ERROR') },
      metadata: tag,
    },
  },
  { commonResponses },
);
