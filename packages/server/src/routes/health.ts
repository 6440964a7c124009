import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { Services } from '../wiring/services';

/** `GET /health`: the report as is, outside the envelope, per the spec. */
export function healthRoutes(services: Services): RouterImplementation<typeof contract.health> {
  return {
    get: async () => ({ status: 200, body: await services.health.report() }),
  };
}
