import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { toSenderNumberView } from '../domain/numbers/number-service';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';
import type { Services } from '../wiring/services';

/** `GET /v1/numbers`: the calling customer's sender addresses. */
export function numbersRoutes(services: Services): RouterImplementation<typeof contract.numbers> {
  return {
    list: async ({ request }) => {
      const numbers = await services.numbers.list(customerOf(request).id);
      return ok(request, 200, numbers.map(toSenderNumberView));
    },
    getSendPolicy: async ({ request, params }) =>
      ok(
        request,
        200,
        await services.sendPolicies.ofNumber(customerOf(request).id, params.phoneNumber),
      ),
  };
}
