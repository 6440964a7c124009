import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';
import type { Services } from '../wiring/services';

/** The webhook registrations, their test deliveries and delivery log, and the legacy endpoints. */
export function webhooksRoutes(services: Services): RouterImplementation<typeof contract.webhooks> {
  const { webhooks } = services;
  return {
    create: async ({ request, body }) =>
      ok(request, 201, await webhooks.create(customerOf(request).id, body)),
    list: async ({ request }) => ok(request, 200, await webhooks.list(customerOf(request).id)),
    get: async ({ request, params }) =>
      ok(request, 200, await webhooks.get(customerOf(request).id, params.id)),
    update: async ({ request, params, body }) =>
      ok(request, 200, await webhooks.update(customerOf(request).id, params.id, body)),
    delete: async ({ request, params }) =>
      ok(request, 200, await webhooks.delete(customerOf(request).id, params.id)),
    test: async ({ request, params }) =>
      ok(
        request,
        200,
        await webhooks.test(customerOf(request).id, params.id, request.correlationId),
      ),
    rotateSecret: async ({ request, params }) =>
      ok(request, 200, await webhooks.rotateSecret(customerOf(request).id, params.id)),
    listDeliveries: async ({ request, params, query }) =>
      ok(request, 200, await webhooks.listDeliveries(customerOf(request).id, params.id, query)),
    redeliver: async ({ request, params }) =>
      ok(
        request,
        202,
        await webhooks.redeliver(customerOf(request).id, params.id, params.deliveryId),
      ),
    legacy: {
      get: async ({ request }) =>
        ok(request, 200, await webhooks.legacyGet(customerOf(request).id)),
      put: async ({ request, body }) =>
        ok(request, 200, await webhooks.legacyReplace(customerOf(request).id, body)),
      delete: async ({ request }) =>
        ok(request, 200, await webhooks.legacyDeactivateAll(customerOf(request).id)),
      test: async ({ request }) =>
        ok(request, 200, await webhooks.legacyTest(customerOf(request).id, request.correlationId)),
      rotateSecret: async ({ request }) =>
        ok(request, 200, await webhooks.legacyRotateSecret(customerOf(request).id)),
    },
  };
}
