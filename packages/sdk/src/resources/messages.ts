import type { APIPromise } from '../core/api-promise';
import type { PagePromise } from '../core/pagination';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { generateIdempotencyKey } from '../internal/idempotency-key';
import { callRoute, listRoute } from '../internal/route-call';
import type { RouteBody, RouteData, RouteItem, RouteQuery } from '../internal/route-types';

const routes = routeTable.messages;

/** The body of {@link Messages.send}. */
export type MessageSendParams = RouteBody<Operations['messages']['send']>;
/**
 * The answer of {@link Messages.send}: the accepted message (202), or, for a repeated
 * `idempotencyKey`, the message that key created as it is now (200, a full `Message`, header
 * `Idempotent-Replayed: true`); a key whose message was deleted answers 409 `ALREADY_DELETED`.
 */
export type MessageSendResponse = RouteData<Operations['messages']['send']>;
/** The query of {@link Messages.list}. */
export type MessageListParams = RouteQuery<Operations['messages']['list']>;
/** The query of {@link Messages.listScheduled}. */
export type MessageListScheduledParams = RouteQuery<Operations['messages']['listScheduled']>;
/** A message as get and list return it. */
export type MessageResponse = RouteData<Operations['messages']['get']>;
/** A message in a list page. */
export type MessageListItem = RouteItem<Operations['messages']['list'], 'messages'>;
/** The answer of {@link Messages.routing}: the message's routing trace, oldest step first. */
export type MessageRoutingResponse = RouteData<Operations['messages']['routing']>;
/** The query of {@link Messages.listEvents}. */
export type MessageListEventsParams = RouteQuery<Operations['messages']['listEvents']>;
/** One event a message emitted, with every attempt to deliver it (per webhook, and to its callback URL). */
export type MessageEventItem = RouteItem<Operations['messages']['listEvents'], 'events'>;
/** The answer of {@link Messages.retry}. */
export type MessageRetryResponse = RouteData<Operations['messages']['retry']>;
/** The body of {@link Messages.edit}. */
export type MessageEditParams = RouteBody<Operations['messages']['edit']>;
/** The body of {@link Messages.react}. */
export type MessageReactParams = RouteBody<Operations['messages']['react']>;
/** The answer of {@link Messages.react}. */
export type MessageReactResponse = RouteData<Operations['messages']['react']>;
/** The answer of {@link Messages.delete}. */
export type MessageDeleteResponse = RouteData<Operations['messages']['delete']>;

/** Sending messages and every operation on one message. */
export class Messages extends APIResource {
  /**
   * Sends (or schedules) a message to `to` or into the chat `chatId`. Retrying a send is safe:
   * it always carries an `idempotencyKey` (yours, or one the SDK generates).
   * @example
   * const sent = await client.messages.send({ to: '+14155550100', content: { text: 'Hello' } });
   */
  send(params: MessageSendParams, options?: RequestOptions): APIPromise<MessageSendResponse> {
    const idempotencyKey =
      params.idempotencyKey ?? options?.idempotencyKey ?? generateIdempotencyKey();
    return callRoute(
      this._transport,
      routes.send,
      { body: { ...params, idempotencyKey }, idempotent: true },
      options,
    );
  }

  /**
   * Outbound and inbound messages, newest first; `for await` walks every page.
   * @example for await (const message of client.messages.list({ status: 'failed' })) { … }
   */
  list(params: MessageListParams = {}, options?: RequestOptions): PagePromise<MessageListItem> {
    return listRoute(this._transport, routes.list, 'messages', { query: params }, options);
  }

  /** Messages waiting for their `scheduledAt`, soonest first; `for await` walks every page. */
  listScheduled(
    params: MessageListScheduledParams = {},
    options?: RequestOptions,
  ): PagePromise<RouteItem<Operations['messages']['listScheduled'], 'messages'>> {
    return listRoute(this._transport, routes.listScheduled, 'messages', { query: params }, options);
  }

  /** A message with its status, channel and timeline. */
  get(id: string, options?: RequestOptions): APIPromise<MessageResponse> {
    return callRoute(this._transport, routes.get, { params: { id } }, options);
  }

  /**
   * Why the message went where it went: each channel and instance considered or tried, in order,
   * with the decision, its reason and the upstream id.
   * @example
   * const { steps } = await client.messages.routing(id);
   * for (const step of steps) console.log(step.decision, step.reason, step.channel, step.detail);
   */
  routing(id: string, options?: RequestOptions): APIPromise<MessageRoutingResponse> {
    return callRoute(this._transport, routes.routing, { params: { id } }, options);
  }

  /**
   * The events the message emitted, oldest first, each with its delivery attempts: per webhook
   * (id, URL, attempts) and to the message's `callbackUrl`; `for await` walks every page.
   * @example
   * for await (const event of client.messages.listEvents(id)) {
   *   for (const hook of event.webhooks) console.log(event.type, hook.url, hook.attempts.at(-1)?.status);
   * }
   */
  listEvents(
    id: string,
    params: MessageListEventsParams = {},
    options?: RequestOptions,
  ): PagePromise<MessageEventItem> {
    return listRoute(
      this._transport,
      routes.listEvents,
      'events',
      { params: { id }, query: params },
      options,
    );
  }

  /**
   * Queues a `failed` message again (same id, new provider id, `retryCount` + 1). Not retried
   * automatically after a dropped connection, since a second call would send it twice.
   */
  retry(id: string, options?: RequestOptions): APIPromise<MessageRetryResponse> {
    return callRoute(this._transport, routes.retry, { params: { id } }, options);
  }

  /** Retracts a sent iMessage; it becomes `unsent`. */
  unsend(
    id: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['messages']['unsend']>> {
    return callRoute(this._transport, routes.unsend, { params: { id } }, options);
  }

  /** Replaces the text of a sent iMessage. */
  edit(
    id: string,
    params: MessageEditParams,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['messages']['edit']>> {
    return callRoute(this._transport, routes.edit, { params: { id }, body: params }, options);
  }

  /**
   * Adds a tapback, or removes one with its negative form (`-love`). Safe to repeat: a message
   * holds one reaction per sender.
   */
  react(
    id: string,
    params: MessageReactParams,
    options?: RequestOptions,
  ): APIPromise<MessageReactResponse> {
    return callRoute(
      this._transport,
      routes.react,
      { params: { id }, body: params, idempotent: true },
      options,
    );
  }

  /** Soft-deletes a message: it disappears from get and list. */
  delete(id: string, options?: RequestOptions): APIPromise<MessageDeleteResponse> {
    return callRoute(this._transport, routes.delete, { params: { id } }, options);
  }

  /** Cancels a scheduled message before it is due; its status becomes `cancelled`. */
  cancelSchedule(
    id: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['messages']['cancelSchedule']>> {
    return callRoute(this._transport, routes.cancelSchedule, { params: { id } }, options);
  }
}
