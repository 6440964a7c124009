import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import { DomainError } from '../domain/domain-error';
import type { MessageActions } from '../domain/messages/message-actions';
import type { MessageEventLog } from '../domain/messages/message-event-log';
import type { MessageService } from '../domain/messages/message-service';
import { type MessageViews, toSendResult } from '../domain/messages/message-view';
import { customerOf } from '../http/authentication';
import { ok } from '../http/envelope';

/**
 * The idempotency key of a send: the body's `idempotencyKey` or the `Idempotency-Key` header.
 * @throws {DomainError} VALIDATION_ERROR when both are given and differ.
 */
function idempotencyKeyOf(
  body: string | undefined,
  header: string | undefined,
): string | undefined {
  if (body !== undefined && header !== undefined && body !== header) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'idempotencyKey: differs from the Idempotency-Key header; send one of them, or the same value',
    );
  }
  return body ?? header;
}

/** What the message routes call. */
export interface MessageRouteServices {
  /** Send, list, get, retry, delete, the scheduled list and cancel. */
  messages: MessageService;
  /** Unsend, edit and reactions. */
  messageActions: MessageActions;
  /** Shows stored messages as the API's `Message`. */
  messageViews: MessageViews;
  /** A message's events with their delivery attempts. */
  messageEventLog: MessageEventLog;
}

/** The `/v1/messages` routes. */
export function messagesRoutes(
  services: MessageRouteServices,
): RouterImplementation<typeof contract.messages> {
  const { messages, messageActions, messageViews, messageEventLog } = services;
  return {
    send: async ({ body, headers, request, reply }) => {
      const idempotencyKey = idempotencyKeyOf(body.idempotencyKey, headers['idempotency-key']);
      const outcome = await messages.send(
        customerOf(request).id,
        idempotencyKey === undefined ? body : { ...body, idempotencyKey },
        request.correlationId,
      );
      if (outcome.created) return ok(request, 202, toSendResult(outcome.message));
      // A replay answers the message as it is now (its status moved on since the 202).
      reply.header('idempotent-replayed', 'true');
      return ok(request, 200, await messageViews.message(outcome.message));
    },
    list: async ({ query, request }) =>
      ok(request, 200, await messageViews.list(await messages.list(customerOf(request).id, query))),
    listScheduled: async ({ query, request }) =>
      ok(
        request,
        200,
        await messageViews.list(await messages.listScheduled(customerOf(request).id, query)),
      ),
    get: async ({ params, request }) =>
      ok(
        request,
        200,
        await messageViews.message(await messages.get(customerOf(request).id, params.id)),
      ),
    routing: async ({ params, request }) =>
      ok(request, 200, await messages.routing(customerOf(request).id, params.id)),
    listEvents: async ({ params, query, request }) =>
      ok(
        request,
        200,
        await messageEventLog.list(await messages.get(customerOf(request).id, params.id), query),
      ),
    retry: async ({ params, request }) => {
      const message = await messages.retry(
        customerOf(request).id,
        params.id,
        request.correlationId,
      );
      return ok(request, 202, {
        id: message.id,
        status: 'queued' as const,
        retryCount: message.retryCount,
      });
    },
    unsend: async ({ params, request }) => {
      const message = await messageActions.unsend(
        customerOf(request).id,
        params.id,
        request.correlationId,
      );
      return ok(request, 200, await messageViews.message(message));
    },
    edit: async ({ params, body, request }) => {
      const message = await messageActions.edit(
        customerOf(request).id,
        params.id,
        body,
        request.correlationId,
      );
      return ok(request, 200, await messageViews.message(message));
    },
    react: async ({ params, body, request }) =>
      ok(request, 200, await messageActions.react(customerOf(request).id, params.id, body.type)),
    delete: async ({ params, request }) => {
      await messages.delete(customerOf(request).id, params.id, request.correlationId);
      return ok(request, 200, { id: params.id, deleted: true as const });
    },
    cancelSchedule: async ({ params, request }) => {
      const message = await messages.cancelSchedule(
        customerOf(request).id,
        params.id,
        request.correlationId,
      );
      return ok(request, 200, await messageViews.message(message));
    },
  };
}
