import { c } from '../contract-builder';
import { errors } from '../schemas/common';
import { HealthReport, ServiceIndex } from '../schemas/health';

/** `GET /health`: unauthenticated, not rate limited, not in the envelope. */
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
});
