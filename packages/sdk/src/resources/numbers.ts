import { contract } from '@switchboard/contract';
import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import { callRoute } from '../internal/route-call';
import type { RouteData } from '../internal/route-types';

/** The account's sender addresses. */
export type NumberListResponse = RouteData<typeof contract.numbers.list>;

/** The account's sender numbers and addresses. */
export class Numbers extends APIResource {
  /** Every sender address with its instance and health; any of them is usable as `from`. */
  list(options?: RequestOptions): APIPromise<NumberListResponse> {
    return callRoute(this._transport, contract.numbers.list, {}, options);
  }
}
