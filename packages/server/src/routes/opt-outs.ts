import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';
import type { Services } from '../wiring/services';

/** `GET /v1/opt-outs`: the calling customer's opt-out ledger. */
export function optOutsRoutes(services: Services): RouterImplementation<typeof contract.optOuts> {
  return {
    list: async ({ request, query }) =>
      ok(request, 200, await services.optOuts.list(customerOf(request).id, query)),
  };
}
