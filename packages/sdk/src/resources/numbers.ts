import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute } from '../internal/route-call';
import type { RouteData } from '../internal/route-types';

/** The account's sender addresses. */
export type NumberListResponse = RouteData<Operations['numbers']['list']>;

/** A number's send policy: as set, inherited, and in effect today per channel with its counts. */
export type NumberSendPolicyResponse = RouteData<Operations['numbers']['getSendPolicy']>;

/** The account's sender numbers and addresses. */
export class Numbers extends APIResource {
  /** Every sender address with its instance and health; any of them is usable as `from`. */
  list(options?: RequestOptions): APIPromise<NumberListResponse> {
    return callRoute(this._transport, routeTable.numbers.list, {}, options);
  }

  /**
   * The send policy of one of the account's numbers (with or without its `+`): daily caps,
   * cold-contact cap, warm-up day, today's counts and any WhatsApp restriction.
   */
  sendPolicy(phoneNumber: string, options?: RequestOptions): APIPromise<NumberSendPolicyResponse> {
    return callRoute(
      this._transport,
      routeTable.numbers.getSendPolicy,
      { params: { phoneNumber } },
      options,
    );
  }
}
