import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { FastifyRequest } from 'fastify';
import type { ChatCaller, ChatService } from '../domain/chats/chat-service';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';

/** The caller of a chat route: the customer and the request's correlation id. */
function callerOf(request: FastifyRequest): ChatCaller {
  return { customerId: customerOf(request).id, correlationId: request.correlationId };
}

/** The `/v1/chats` routes. */
export function chatsRoutes(services: {
  chats: ChatService;
}): RouterImplementation<typeof contract.chats> {
  const { chats } = services;
  return {
    createGroup: async ({ body, request }) =>
      ok(request, 201, await chats.createGroup(callerOf(request), body)),
    get: async ({ params, request }) =>
      ok(request, 200, await chats.get(callerOf(request), params.chatId)),
    rename: async ({ params, body, request }) =>
      ok(request, 200, await chats.rename(callerOf(request), params.chatId, body.name)),
    addParticipant: async ({ params, body, request }) =>
      ok(
        request,
        200,
        await chats.addParticipant(callerOf(request), params.chatId, body.participant),
      ),
    removeParticipant: async ({ params, request }) =>
      ok(
        request,
        200,
        await chats.removeParticipant(callerOf(request), params.chatId, params.participantId),
      ),
    leave: async ({ params, request }) =>
      ok(request, 200, await chats.leave(callerOf(request), params.chatId)),
    markRead: async ({ params, request }) =>
      ok(request, 200, await chats.markRead(callerOf(request), params.chatId)),
    markUnread: async ({ params, request }) =>
      ok(request, 200, await chats.markUnread(callerOf(request), params.chatId)),
    typing: async ({ params, body, request }) =>
      ok(request, 200, await chats.typing(callerOf(request), params.chatId, body.status)),
  };
}
