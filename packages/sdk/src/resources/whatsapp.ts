import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute } from '../internal/route-call';
import type { RouteBody, RouteData, RouteQuery } from '../internal/route-types';

const routes = routeTable.whatsapp;

/** Every owned number with its WhatsApp session. */
export type WhatsAppListResponse = RouteData<Operations['whatsapp']['list']>;
/** A number's WhatsApp session. */
export type WhatsAppSessionResponse = RouteData<Operations['whatsapp']['enable']>;
/** The state of a number's session. */
export type WhatsAppStatusResponse = RouteData<Operations['whatsapp']['status']>;
/** The optional body of {@link WhatsApp.pairingCode}. */
export type WhatsAppPairingCodeParams = RouteBody<Operations['whatsapp']['pairingCode']>;
/** The query of {@link WhatsApp.check}. */
export type WhatsAppCheckParams = RouteQuery<Operations['whatsapp']['check']>;

/**
 * WhatsApp sessions of the account's numbers: pairing, state and lookups. `phoneNumber` is an
 * owned number, E.164 with or without the leading `+`.
 */
export class WhatsApp extends APIResource {
  /** Every owned number with its session (`not_enabled` when none was started). */
  list(options?: RequestOptions): APIPromise<WhatsAppListResponse> {
    return callRoute(this._transport, routes.list, {}, options);
  }

  /** Creates the session and starts pairing; an enabled session is returned as it is. */
  enable(phoneNumber: string, options?: RequestOptions): APIPromise<WhatsAppSessionResponse> {
    return callRoute(
      this._transport,
      routes.enable,
      { params: { phoneNumber }, idempotent: true },
      options,
    );
  }

  /** The session's state, JID and connection times. */
  status(phoneNumber: string, options?: RequestOptions): APIPromise<WhatsAppStatusResponse> {
    return callRoute(this._transport, routes.status, { params: { phoneNumber } }, options);
  }

  /** The raw QR payload while the session is `qr_pending`. */
  qr(
    phoneNumber: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['whatsapp']['qr']>> {
    return callRoute(this._transport, routes.qr, { params: { phoneNumber } }, options);
  }

  /** An 8-character pairing code, the alternative to the QR code. */
  pairingCode(
    phoneNumber: string,
    params?: WhatsAppPairingCodeParams,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['whatsapp']['pairingCode']>> {
    return callRoute(
      this._transport,
      routes.pairingCode,
      { params: { phoneNumber }, body: params },
      options,
    );
  }

  /** Drops the live session and keeps its credentials. */
  disconnect(phoneNumber: string, options?: RequestOptions): APIPromise<WhatsAppSessionResponse> {
    return callRoute(
      this._transport,
      routes.disconnect,
      { params: { phoneNumber }, idempotent: true },
      options,
    );
  }

  /** Removes the session and its credentials. */
  delete(
    phoneNumber: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['whatsapp']['delete']>> {
    return callRoute(this._transport, routes.delete, { params: { phoneNumber } }, options);
  }

  /**
   * Whether a recipient has a WhatsApp account, asked through this number's session.
   * @example const { onWhatsApp } = await client.whatsapp.check(owned, { phone: '+14155550100' });
   */
  check(
    phoneNumber: string,
    params: WhatsAppCheckParams,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['whatsapp']['check']>> {
    return callRoute(
      this._transport,
      routes.check,
      { params: { phoneNumber }, query: params },
      options,
    );
  }

  /** Verification codes this number received in the last 15 minutes. */
  signupCodes(
    phoneNumber: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['whatsapp']['signupCodes']>> {
    return callRoute(this._transport, routes.signupCodes, { params: { phoneNumber } }, options);
  }
}
