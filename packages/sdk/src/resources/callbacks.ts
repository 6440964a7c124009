import type { APIPromise } from '../core/api-promise';
import type { PagePromise } from '../core/pagination';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute, listRoute } from '../internal/route-call';
import type { RouteData, RouteItem, RouteQuery } from '../internal/route-types';

const routes = routeTable.callbacks;

/** The signing secret of `callbackUrl` deliveries. */
export type CallbackSecretResponse = RouteData<Operations['callbacks']['getSecret']>;
/** The query of {@link Callbacks.listDeliveries}. */
export type CallbackListDeliveriesParams = RouteQuery<Operations['callbacks']['listDeliveries']>;
/** One delivery attempt of one event to a message's `callbackUrl`. */
export type CallbackDeliveryItem = RouteItem<
  Operations['callbacks']['listDeliveries'],
  'deliveries'
>;

/** Per-message `callbackUrl` deliveries: their signing secret and their delivery log. */
export class Callbacks extends APIResource {
  /**
   * The secret `callbackUrl` deliveries are signed with; verify them with `verifyWebhook`.
   * @example const { secret } = await client.callbacks.getSecret();
   */
  getSecret(options?: RequestOptions): APIPromise<CallbackSecretResponse> {
    return callRoute(this._transport, routes.getSecret, {}, options);
  }

  /** A new callback signing secret; the old one stops signing at once. */
  rotateSecret(options?: RequestOptions): APIPromise<CallbackSecretResponse> {
    return callRoute(this._transport, routes.rotateSecret, {}, options);
  }

  /**
   * The callback delivery attempts, newest first; `for await` walks every page.
   * @example for await (const d of client.callbacks.listDeliveries({ status: 'failed' })) { … }
   */
  listDeliveries(
    params: CallbackListDeliveriesParams = {},
    options?: RequestOptions,
  ): PagePromise<CallbackDeliveryItem> {
    return listRoute(
      this._transport,
      routes.listDeliveries,
      'deliveries',
      { query: params },
      options,
    );
  }
}
