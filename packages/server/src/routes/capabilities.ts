import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { CapabilityService } from '../domain/capabilities/capability-service';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';

/** `GET /v1/capabilities/:phoneNumber`. */
export function capabilitiesRoutes(services: {
  capabilities: CapabilityService;
}): RouterImplementation<typeof contract.capabilities> {
  return {
    get: async ({ params, request }) =>
      ok(
        request,
        200,
        await services.capabilities.check(customerOf(request).id, params.phoneNumber),
      ),
  };
}
