import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { WhatsAppSessionService } from '../domain/whatsapp/whatsapp-session-service';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';

/** The `/v1/whatsapp` routes: one session per owned number. */
export function whatsappRoutes(services: {
  whatsappSessions: WhatsAppSessionService;
}): RouterImplementation<typeof contract.whatsapp> {
  const sessions = services.whatsappSessions;
  return {
    list: async ({ request }) => ok(request, 200, await sessions.list(customerOf(request).id)),
    enable: async ({ params, request }) =>
      ok(request, 200, await sessions.enable(customerOf(request).id, params.phoneNumber)),
    status: async ({ params, request }) =>
      ok(request, 200, await sessions.status(customerOf(request).id, params.phoneNumber)),
    qr: async ({ params, request }) =>
      ok(request, 200, await sessions.qr(customerOf(request).id, params.phoneNumber)),
    pairingCode: async ({ params, body, request }) =>
      ok(
        request,
        200,
        await sessions.pairingCode(customerOf(request).id, params.phoneNumber, body?.phoneNumber),
      ),
    disconnect: async ({ params, request }) =>
      ok(request, 200, await sessions.disconnect(customerOf(request).id, params.phoneNumber)),
    delete: async ({ params, request }) =>
      ok(request, 200, await sessions.delete(customerOf(request).id, params.phoneNumber)),
    check: async ({ params, query, request }) =>
      ok(
        request,
        200,
        await sessions.check(customerOf(request).id, params.phoneNumber, query.phone),
      ),
    signupCodes: async ({ params, request }) =>
      ok(request, 200, await sessions.signupCodes(customerOf(request).id, params.phoneNumber)),
  };
}
