import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { toContactErasureView } from '../domain/contact-erasure/contact-erasure-service';
import { apiKeyOf, customerOf } from '../http/authentication';
import { ok } from '../http/envelope';
import type { Services } from '../wiring/services';

/** `POST /v1/contact-erasures` and its list: the calling customer forgets a contact. */
export function contactErasuresRoutes(
  services: Services,
): RouterImplementation<typeof contract.contactErasures> {
  return {
    create: async ({ request, body }) => {
      const record = await services.contactErasures.erase(body.address, {
        customerId: customerOf(request).id,
        requestedBy: `api_key:${apiKeyOf(request).id}`,
      });
      return ok(request, 201, toContactErasureView(record));
    },
    list: async ({ request }) =>
      ok(
        request,
        200,
        (await services.contactErasures.list(customerOf(request).id)).map(toContactErasureView),
      ),
  };
}
