import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { Services } from '../wiring/services';

/** `GET /health`: the report as is, outside the envelope, per the spec; `GET /`: where to go. */
export function healthRoutes(services: Services): RouterImplementation<typeof contract.health> {
  return {
    get: async () => ({ status: 200, body: await services.health.report() }),
    index: async () => ({
      status: 200,
      body: {
        name: 'Switchboard' as const,
        health: '/health',
        documentation: 'openapi/openapi.json and docs/ in the Switchboard repository',
        message:
          'Switchboard is running. Check /health; API calls live under /v1 with Authorization: Bearer <API key>.',
      },
    }),
  };
}
