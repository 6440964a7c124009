import { z } from 'zod';
import { c } from '../contract-builder';
import { errors } from '../schemas/common';
import { HealthReport, ServiceIndex } from '../schemas/health';

/**
 * `GET /health`, `GET /`, `GET /openapi.json` and `GET /docs`: unauthenticated, not rate limited,
 * not in the envelope.
 */
export const healthContract = c.router({
  get: {
    method: 'GET',
    path: '/health',
    summary: 'Service health',
    description:
      'Checks the database and Redis, and reports the provider instances. No authentication.',
    responses: { 200: HealthReport, ...errors('INTERNAL_ERROR') },
    metadata: { tag: 'Health', auth: false, rateLimited: false },
  },
  index: {
    method: 'GET',
    path: '/',
    summary: 'Service index',
    description:
      'Points to `/health` and the API documentation, so the server’s root answers something useful. No authentication.',
    responses: { 200: ServiceIndex, ...errors('INTERNAL_ERROR') },
    metadata: { tag: 'Health', auth: false, rateLimited: false },
  },
  openapi: {
    method: 'GET',
    path: '/openapi.json',
    summary: 'OpenAPI document',
    description:
      'This API as an OpenAPI 3 document: the same file as `openapi/openapi.json` in the repository, generated from the contract. No authentication.',
    responses: {
      200: c.otherResponse({ contentType: 'application/json', body: z.record(z.unknown()) }),
      ...errors('INTERNAL_ERROR'),
    },
    metadata: { tag: 'Health', auth: false, rateLimited: false },
  },
  metrics: {
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics',
    description:
      'The server’s metrics in the Prometheus text format: API requests by route and status with latency, messages by status and channel, outbox and scheduled depth, webhook attempts by outcome with their lag, event-stream subscribers, provider health per instance, event-loop lag. Needs `Authorization: Bearer <token>` with the operator token (`SWITCHBOARD_ADMIN_TOKEN`) or `METRICS_TOKEN` (401 `UNAUTHORIZED` otherwise; an API key does not open it), unless the operator sets `METRICS_OPEN=true`. Not rate limited.',
    responses: {
      200: c.otherResponse({ contentType: 'text/plain', body: z.string() }),
      ...errors('UNAUTHORIZED', 'INTERNAL_ERROR'),
    },
    metadata: { tag: 'Health', auth: 'metrics', rateLimited: false },
  },
  docs: {
    method: 'GET',
    path: '/docs',
    summary: 'API reference',
    description:
      'An interactive API reference (Scalar) of `/openapi.json`, every asset served by this server, so it works offline and behind a firewall; "Test Request" calls this server with the API key you enter. No authentication.',
    responses: {
      200: c.otherResponse({ contentType: 'text/html', body: z.string() }),
      ...errors('INTERNAL_ERROR'),
    },
    metadata: { tag: 'Health', auth: false, rateLimited: false },
  },
});
