import type { APIPromise } from '../core/api-promise';
import type { PagePromise } from '../core/pagination';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute, listRoute } from '../internal/route-call';
import type { RouteBody, RouteData, RouteItem, RouteQuery } from '../internal/route-types';

const routes = routeTable.webhooks;
const legacyRoutes = routeTable.webhooks.legacy;

/** The body of {@link Webhooks.create}. */
export type WebhookCreateParams = RouteBody<Operations['webhooks']['create']>;
/** A new webhook; `secret` is present only when Switchboard generated it. */
export type WebhookCreateResponse = RouteData<Operations['webhooks']['create']>;
/** A webhook registration, never with its secret. */
export type WebhookResponse = RouteData<Operations['webhooks']['get']>;
/** The body of {@link Webhooks.update}: any of the fields, at least one. */
export type WebhookUpdateParams = RouteBody<Operations['webhooks']['update']>;
/** The answer of {@link Webhooks.delete}. */
export type WebhookDeleteResponse = RouteData<Operations['webhooks']['delete']>;
/** The outcome of a test delivery. */
export type WebhookTestResponse = RouteData<Operations['webhooks']['test']>;
/** A webhook with its new signing secret, shown once. */
export type WebhookRotateSecretResponse = RouteData<Operations['webhooks']['rotateSecret']>;
/** The query of {@link Webhooks.listDeliveries}. */
export type WebhookListDeliveriesParams = RouteQuery<Operations['webhooks']['listDeliveries']>;
/** One delivery attempt of one event to one webhook. */
export type WebhookDeliveryItem = RouteItem<Operations['webhooks']['listDeliveries'], 'deliveries'>;
/** The delivery attempt queued by {@link Webhooks.redeliver}. */
export type WebhookRedeliverResponse = RouteData<Operations['webhooks']['redeliver']>;

/**
 * The deprecated single-webhook endpoints, which act on the oldest active webhook.
 * @deprecated Use the methods of `client.webhooks` (create, list, delete, test, rotateSecret).
 */
export class LegacyWebhooks extends APIResource {
  /**
   * The oldest active webhook, or null.
   * @deprecated Use `client.webhooks.list()`.
   */
  get(options?: RequestOptions): APIPromise<RouteData<Operations['webhooks']['legacy']['get']>> {
    return callRoute(this._transport, legacyRoutes.get, {}, options);
  }

  /**
   * Deactivates every active webhook and registers a new one.
   * @deprecated Use `client.webhooks.create()`.
   */
  put(
    params: RouteBody<Operations['webhooks']['legacy']['put']>,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['webhooks']['legacy']['put']>> {
    return callRoute(this._transport, legacyRoutes.put, { body: params }, options);
  }

  /**
   * Deactivates every active webhook.
   * @deprecated Use `client.webhooks.delete(id)`.
   */
  delete(
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['webhooks']['legacy']['delete']>> {
    return callRoute(this._transport, legacyRoutes.delete, {}, options);
  }

  /**
   * Sends a `webhook.test` event to the oldest active webhook.
   * @deprecated Use `client.webhooks.test(id)`.
   */
  test(options?: RequestOptions): APIPromise<RouteData<Operations['webhooks']['legacy']['test']>> {
    return callRoute(this._transport, legacyRoutes.test, {}, options);
  }

  /**
   * Rotates the secret of the oldest active webhook.
   * @deprecated Use `client.webhooks.rotateSecret(id)`.
   */
  rotateSecret(
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['webhooks']['legacy']['rotateSecret']>> {
    return callRoute(this._transport, legacyRoutes.rotateSecret, {}, options);
  }
}

/** Webhook registrations, their test deliveries and their delivery log. */
export class Webhooks extends APIResource {
  /**
   * The deprecated single-webhook endpoints.
   * @deprecated Use the methods of `client.webhooks` itself.
   */
  readonly legacy: LegacyWebhooks = new LegacyWebhooks(this._transport);

  /**
   * Registers an HTTPS URL for event types; store the returned `secret`, it is shown once.
   * @example const hook = await client.webhooks.create({ url, events: ['message.delivered'] });
   */
  create(params: WebhookCreateParams, options?: RequestOptions): APIPromise<WebhookCreateResponse> {
    return callRoute(this._transport, routes.create, { body: params }, options);
  }

  /** Every webhook of the account, without secrets. */
  list(options?: RequestOptions): APIPromise<RouteData<Operations['webhooks']['list']>> {
    return callRoute(this._transport, routes.list, {}, options);
  }

  /** One webhook, without its secret. */
  get(id: string, options?: RequestOptions): APIPromise<WebhookResponse> {
    return callRoute(this._transport, routes.get, { params: { id } }, options);
  }

  /** Changes a webhook's url, events, secret, name or `active` flag. */
  update(
    id: string,
    params: WebhookUpdateParams,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['webhooks']['update']>> {
    return callRoute(this._transport, routes.update, { params: { id }, body: params }, options);
  }

  /** Deletes a webhook registration. */
  delete(id: string, options?: RequestOptions): APIPromise<WebhookDeleteResponse> {
    return callRoute(this._transport, routes.delete, { params: { id } }, options);
  }

  /** Delivers a signed `webhook.test` event now and reports the outcome. */
  test(id: string, options?: RequestOptions): APIPromise<WebhookTestResponse> {
    return callRoute(this._transport, routes.test, { params: { id } }, options);
  }

  /** Replaces the signing secret; the old one stops working at once. */
  rotateSecret(id: string, options?: RequestOptions): APIPromise<WebhookRotateSecretResponse> {
    return callRoute(this._transport, routes.rotateSecret, { params: { id } }, options);
  }

  /**
   * The delivery attempts of a webhook, newest first; `for await` walks every page.
   * @example for await (const d of client.webhooks.listDeliveries(id, { status: 'failed' })) { … }
   */
  listDeliveries(
    id: string,
    params: WebhookListDeliveriesParams = {},
    options?: RequestOptions,
  ): PagePromise<WebhookDeliveryItem> {
    return listRoute(
      this._transport,
      routes.listDeliveries,
      'deliveries',
      { params: { id }, query: params },
      options,
    );
  }

  /** Sends the event of a delivery attempt to this webhook again, with the same event id. */
  redeliver(
    id: string,
    deliveryId: string,
    options?: RequestOptions,
  ): APIPromise<WebhookRedeliverResponse> {
    return callRoute(this._transport, routes.redeliver, { params: { id, deliveryId } }, options);
  }
}
