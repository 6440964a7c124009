import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';
import type { Services } from '../wiring/services';

/** `/v1/callbacks/…`: the calling customer's callback signing secret and delivery log. */
export function callbacksRoutes(
  services: Services,
): RouterImplementation<typeof contract.callbacks> {
  return {
    getSecret: async ({ request }) =>
      ok(request, 200, await services.callbacks.secret(customerOf(request).id)),
    rotateSecret: async ({ request }) =>
      ok(request, 200, await services.callbacks.rotate(customerOf(request).id)),
    listDeliveries: async ({ request, query }) =>
      ok(request, 200, await services.callbacks.listDeliveries(customerOf(request).id, query)),
  };
}
