import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute } from '../internal/route-call';
import type { RouteData } from '../internal/route-types';

/** Which channels reach a phone number, and the recommended one. */
export type CapabilityResponse = RouteData<Operations['capabilities']['get']>;

/** Reachability checks for phone numbers. */
export class Capabilities extends APIResource {
  /**
   * Whether an E.164 number is reachable on each channel (results are cached server-side).
   * @example const { recommendedChannel } = await client.capabilities.get('+14155550100');
   */
  get(phoneNumber: string, options?: RequestOptions): APIPromise<CapabilityResponse> {
    return callRoute(
      this._transport,
      routeTable.capabilities.get,
      { params: { phoneNumber } },
      options,
    );
  }
}
