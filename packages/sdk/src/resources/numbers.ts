import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute } from '../internal/route-call';
import type { RouteData } from '../internal/route-types';

/** The account's sender addresses. */
export type NumberListResponse = RouteData<Operations['numbers']['list']>;

/** The account's sender numbers and addresses. */
export class Numbers extends APIResource {
  /** Every sender address with its instance and health; any of them is usable as `from`. */
  list(options?: RequestOptions): APIPromise<NumberListResponse> {
    return callRoute(this._transport, routeTable.numbers.list, {}, options);
  }
}
