import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { toApiKeyView } from '../domain/api-keys/api-key-service';
import { toCustomerView } from '../domain/customers/customer-service';
import { toInstanceView } from '../domain/instances/instance-service';
import { toAssignedNumberView } from '../domain/numbers/number-service';
import { ok } from '../http/envelope';
import type { Services } from '../services';

/** The operator API under `/admin/v1`. */
export function adminRoutes(services: Services): RouterImplementation<typeof contract.admin> {
  return {
    createCustomer: async ({ request, body }) =>
      ok(request, 201, toCustomerView(await services.customers.create(body))),

    listCustomers: async ({ request }) =>
      ok(request, 200, (await services.customers.list()).map(toCustomerView)),

    deleteCustomer: async ({ request, params }) => {
      await services.customers.delete(params.id);
      return ok(request, 200, { id: params.id, deleted: true as const });
    },

    createApiKey: async ({ request, params, body }) =>
      ok(request, 201, await services.apiKeys.issue(params.id, body ?? {})),

    listApiKeys: async ({ request, params }) =>
      ok(request, 200, (await services.apiKeys.list(params.id)).map(toApiKeyView)),

    revokeApiKey: async ({ request, params }) =>
      ok(request, 200, toApiKeyView(await services.apiKeys.revoke(params.id))),

    createInstance: async ({ request, body }) =>
      ok(request, 201, toInstanceView(await services.instances.create(body))),

    listInstances: async ({ request }) =>
      ok(request, 200, (await services.instances.list()).map(toInstanceView)),

    assignNumber: async ({ request, params, body }) =>
      ok(request, 201, toAssignedNumberView(await services.numbers.assign(params.id, body))),

    listCustomerNumbers: async ({ request, params }) =>
      ok(
        request,
        200,
        (await services.numbers.listForOperator(params.id)).map(toAssignedNumberView),
      ),

    removeNumber: async ({ request, params }) => {
      await services.numbers.remove(params.id, params.phoneNumber);
      return ok(request, 200, { phoneNumber: params.phoneNumber, deleted: true as const });
    },
  };
}
