import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { SandboxService } from '../domain/sandbox/sandbox-service';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';

/** The `/v1/sandbox` routes: make the simulated world act for the caller's simulated numbers. */
export function sandboxRoutes(services: {
  sandbox: SandboxService;
}): RouterImplementation<typeof contract.sandbox> {
  const { sandbox } = services;
  return {
    inboundMessage: async ({ body, request }) =>
      ok(request, 200, await sandbox.inboundMessage(customerOf(request).id, body)),
    reaction: async ({ body, request }) =>
      ok(request, 200, await sandbox.reaction(customerOf(request).id, body)),
    typing: async ({ body, request }) =>
      ok(request, 200, await sandbox.typing(customerOf(request).id, body)),
    messageStatus: async ({ params, body, request }) =>
      ok(request, 200, await sandbox.messageStatus(customerOf(request).id, params.id, body)),
    audioKept: async ({ body, request }) =>
      ok(request, 200, await sandbox.audioKept(customerOf(request).id, body)),
    chatEvent: async ({ params, body, request }) =>
      ok(request, 200, await sandbox.chatEvent(customerOf(request).id, params.chatId, body)),
    faceTimeCall: async ({ body, request }) =>
      ok(request, 200, await sandbox.faceTimeCall(customerOf(request).id, body)),
    faceTimeStatus: async ({ params, body, request }) =>
      ok(request, 200, await sandbox.faceTimeStatus(customerOf(request).id, params.callUuid, body)),
    whatsappScanQr: async ({ params, request }) =>
      ok(request, 200, await sandbox.whatsappScanQr(customerOf(request).id, params.phoneNumber)),
    whatsappEnterPairingCode: async ({ params, body, request }) =>
      ok(
        request,
        200,
        await sandbox.whatsappEnterPairingCode(
          customerOf(request).id,
          params.phoneNumber,
          body.code,
        ),
      ),
    whatsappDropConnection: async ({ params, body, request }) =>
      ok(
        request,
        200,
        await sandbox.whatsappDropConnection(customerOf(request).id, params.phoneNumber, body),
      ),
    whatsappResolveLid: async ({ params, body, request }) =>
      ok(
        request,
        200,
        await sandbox.whatsappResolveLid(customerOf(request).id, params.phoneNumber, body),
      ),
    setInstanceHealth: async ({ params, body, request }) =>
      ok(
        request,
        200,
        await sandbox.setInstanceHealth(customerOf(request).id, params.phoneNumber, body),
      ),
  };
}
