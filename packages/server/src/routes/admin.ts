import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { toApiKeyView } from '../domain/api-keys/api-key-service';
import { toContactErasureView } from '../domain/contact-erasure/contact-erasure-service';
import { toCustomerView } from '../domain/customers/customer-service';
import { toUnroutedInboundItem } from '../domain/inbound/unrouted-inbound-service';
import { toInstanceView } from '../domain/instances/instance-view';
import { toAdminMessageList } from '../domain/messages/message-view';
import { toAssignedNumberView } from '../domain/numbers/number-service';
import { ok } from '../http/envelope';
import type { InstanceRecord } from '../store/instance-repository';
import type { Services } from '../wiring/services';

type AdminRoutes = RouterImplementation<typeof contract.admin>;

/** The operator API's customers: their keys, numbers, opt-outs and retention. */
function customerRoutes(
  services: Services,
): Pick<
  AdminRoutes,
  | 'createCustomer'
  | 'listCustomers'
  | 'deleteCustomer'
  | 'createApiKey'
  | 'listApiKeys'
  | 'revokeApiKey'
  | 'assignNumber'
  | 'listCustomerNumbers'
  | 'removeNumber'
  | 'getNumberSendPolicy'
  | 'putNumberSendPolicy'
  | 'resumeNumberSends'
  | 'listCustomerOptOuts'
> {
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

    assignNumber: async ({ request, params, body }) => {
      const number = await services.numbers.assign(params.id, body);
      // What came for this address before it was assigned is delivered now, in the background.
      void services.unroutedInboundWorker.runNow();
      return ok(request, 201, toAssignedNumberView(number));
    },

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

    getNumberSendPolicy: async ({ request, params }) =>
      ok(request, 200, await services.sendPolicies.ofNumber(params.id, params.phoneNumber)),

    putNumberSendPolicy: async ({ request, params, body }) =>
      ok(
        request,
        200,
        await services.sendPolicies.setForNumber(params.id, params.phoneNumber, body, request.log),
      ),

    resumeNumberSends: async ({ request, params, query }) =>
      ok(
        request,
        200,
        await services.sendPolicies.resume(
          params.id,
          params.phoneNumber,
          query.channel,
          request.log,
        ),
      ),

    listCustomerOptOuts: async ({ request, params, query }) => {
      await services.customers.get(params.id);
      return ok(request, 200, await services.optOuts.list(params.id, query));
    },
  };
}

/** The operator API's instances. */
function instanceRoutes(
  services: Services,
  publicBaseUrl: string,
): Pick<
  AdminRoutes,
  | 'createInstance'
  | 'listInstances'
  | 'getInstance'
  | 'updateInstance'
  | 'rotateInstanceIngressToken'
  | 'deleteInstance'
  | 'getInstanceSendPolicy'
  | 'putInstanceSendPolicy'
> {
  const { instances } = services;
  const view = (record: InstanceRecord) => toInstanceView(record, publicBaseUrl);
  return {
    createInstance: async ({ request, body }) =>
      ok(request, 201, view(await instances.create(body))),

    listInstances: async ({ request }) => ok(request, 200, (await instances.list()).map(view)),

    getInstance: async ({ request, params }) =>
      ok(request, 200, view(await instances.get(params.id))),

    updateInstance: async ({ request, params, body }) =>
      ok(request, 200, view(await instances.update(params.id, body))),

    rotateInstanceIngressToken: async ({ request, params }) =>
      ok(request, 200, view(await instances.rotateIngressToken(params.id))),

    getInstanceSendPolicy: async ({ request, params }) =>
      ok(request, 200, await services.sendPolicies.ofInstance(params.id)),

    putInstanceSendPolicy: async ({ request, params, body }) =>
      ok(request, 200, await services.sendPolicies.setForInstance(params.id, body, request.log)),

    deleteInstance: async ({ request, params, query }) => {
      const { releasedNumbers } = await instances.delete(params.id, query.force);
      return ok(request, 200, { id: params.id, deleted: true as const, releasedNumbers });
    },
  };
}

/** The operator API's data over time: kept inbound, contact erasures and retention periods. */
function dataRoutes(
  services: Services,
): Pick<
  AdminRoutes,
  | 'listUnroutedInbound'
  | 'discardUnroutedInboundItem'
  | 'discardUnroutedInbound'
  | 'eraseContact'
  | 'listContactErasures'
  | 'getCustomerRetention'
  | 'updateCustomerRetention'
> {
  return {
    listUnroutedInbound: async ({ request, query }) => {
      const { limit, ...filter } = query;
      const { items, total } = await services.unroutedInbound.list(filter, limit);
      return ok(request, 200, { items: items.map(toUnroutedInboundItem), total });
    },

    discardUnroutedInboundItem: async ({ request, params }) => {
      await services.unroutedInbound.discard(params.id);
      return ok(request, 200, { id: params.id, discarded: true as const });
    },

    discardUnroutedInbound: async ({ request, body }) =>
      ok(request, 200, { discarded: await services.unroutedInbound.discardMatching(body) }),

    eraseContact: async ({ request, body }) => {
      const record = await services.contactErasures.erase(body.address, {
        customerId: body.customerId ?? null,
        requestedBy: 'operator',
      });
      return ok(request, 201, toContactErasureView(record));
    },

    listContactErasures: async ({ request, query }) =>
      ok(
        request,
        200,
        (await services.contactErasures.list(query.customerId ?? null)).map(toContactErasureView),
      ),

    getCustomerRetention: async ({ request, params }) =>
      ok(request, 200, await services.retention.get(params.id)),

    updateCustomerRetention: async ({ request, params, body }) =>
      ok(request, 200, await services.retention.update(params.id, body)),
  };
}

/** The operator API's view of the traffic: messages across customers and recent stats. */
function trafficRoutes(
  services: Services,
): Pick<AdminRoutes, 'listMessages' | 'getMessage' | 'listMessageEvents' | 'getStats'> {
  return {
    listMessages: async ({ request, query }) => {
      const { customerId, ...filters } = query;
      const page = await services.messages.list(customerId, filters);
      return ok(request, 200, await toAdminMessageList(services.messageViews, page));
    },

    getMessage: async ({ request, params }) => {
      const message = await services.messages.getInAnyCustomer(params.id);
      return ok(request, 200, {
        ...(await services.messageViews.message(message)),
        customerId: message.customerId,
        routing: await services.messages.routingOf(message),
      });
    },

    listMessageEvents: async ({ request, params, query }) =>
      ok(
        request,
        200,
        await services.messageEventLog.list(
          await services.messages.getInAnyCustomer(params.id),
          query,
        ),
      ),

    getStats: async ({ request, query }) => ok(request, 200, await services.stats.count(query)),
  };
}

/** The operator API under `/admin/v1`. */
export function adminRoutes(services: Services, publicBaseUrl: string): AdminRoutes {
  return {
    ...customerRoutes(services),
    ...instanceRoutes(services, publicBaseUrl),
    ...dataRoutes(services),
    ...trafficRoutes(services),
  };
}
