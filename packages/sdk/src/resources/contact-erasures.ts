import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute } from '../internal/route-call';
import type { RouteBody, RouteData } from '../internal/route-types';

/** The body of {@link ContactErasures.create}: the address to forget. */
export type ContactErasureCreateParams = RouteBody<Operations['contactErasures']['create']>;

/** The record of an erasure, with how much it removed. */
export type ContactErasureResponse = RouteData<Operations['contactErasures']['create']>;

/** The account's erasures, newest first. */
export type ContactErasureListResponse = RouteData<Operations['contactErasures']['list']>;

/** Forgetting contacts: erase everything the account holds about one address. */
export class ContactErasures extends APIResource {
  /**
   * Erases every message, attachment, event, delivery-log entry and one-to-one chat of one
   * address (the opt-out fact stays) and answers the record with counts.
   * @example const { counts } = await client.contactErasures.create({ address: '+14155550123' });
   */
  create(
    params: ContactErasureCreateParams,
    options?: RequestOptions,
  ): APIPromise<ContactErasureResponse> {
    return callRoute(this._transport, routeTable.contactErasures.create, { body: params }, options);
  }

  /** The account's erasures, newest first (the last 100). */
  list(options?: RequestOptions): APIPromise<ContactErasureListResponse> {
    return callRoute(this._transport, routeTable.contactErasures.list, {}, options);
  }
}
