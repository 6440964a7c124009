import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { toApiKeyView } from '../domain/api-keys/api-key-service';
import { toCustomerView } from '../domain/customers/customer-service';
import { toInstanceView } from '../domain/instances/instance-view';
import { toAssignedNumberView } from '../domain/numbers/number-service';
import { ok } from '../http/envelope';
import type { InstanceRecord } from '../store/instance-repository';
import type { Services } from '../wiring/services';

/** The operator API under `/admin/v1`. */
export function adminRoutes(
  services: Services,
  publicBaseUrl: string,
): RouterImplementation<typeof contract.admin> {
  const { instances } = services;
  const view = (record: InstanceRecord) => toInstanceView(record, publicBaseUrl);
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
      ok(request, 201, view(await instances.create(body))),

    listInstances: async ({ request }) => ok(request, 200, (await instances.list()).map(view)),

    getInstance: async ({ request, params }) =>
      ok(request, 200, view(await instances.get(params.id))),

    updateInstance: async ({ request, params, body }) =>
      ok(request, 200, view(await instances.update(params.id, body))),

    rotateInstanceIngressToken: async ({ request, params }) =>
      ok(request, 200, view(await instances.rotateIngressToken(params.id))),

    deleteInstance: async ({ request, params, query }) => {
      const { releasedNumbers } = await instances.delete(params.id, query.force);
      return ok(request, 200, { id: params.id, deleted: true as const, releasedNumbers });
    },

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

    listCustomerOptOuts: async ({ request, params, query }) => {
      await services.customers.get(params.id);
      return ok(request, 200, await services.optOuts.list(params.id, query));
    },
  };
}
