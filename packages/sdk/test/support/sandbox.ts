import { contract } from '@switchboard/contract';
import type { APIPromise } from '../../src/core/api-promise';
import { Transport } from '../../src/core/request';
import { DEFAULT_RETRY_POLICY } from '../../src/core/retry';
import { callRoute } from '../../src/internal/route-call';
import type { RouteBody, RouteData } from '../../src/internal/route-types';

const routes = contract.sandbox;

/**
 * The sandbox routes the SDK does not wrap (they drive the simulator, not a product feature),
 * called through the SDK's own transport so that their bodies and answers stay typed by the
 * contract.
 */
export interface Sandbox {
  /** A contact sends a message to one of the customer's numbers. */
  inboundMessage(
    body: RouteBody<typeof routes.inboundMessage>,
  ): APIPromise<RouteData<typeof routes.inboundMessage>>;
  /** The phone scans the QR code of a `qr_pending` session. */
  scanQr(phoneNumber: string): APIPromise<RouteData<typeof routes.whatsappScanQr>>;
}

/** A sandbox client for the customer of `apiKey`. */
export function sandboxFor(baseUrl: string, apiKey: string): Sandbox {
  const transport = new Transport({
    apiKey,
    baseUrl,
    timeout: 10_000,
    retryPolicy: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
    fetch: (input, init) => fetch(input, init),
    defaultHeaders: {},
    sleep: async () => {},
    random: Math.random,
  });
  return {
    inboundMessage: (body) => callRoute(transport, routes.inboundMessage, { body }, undefined),
    scanQr: (phoneNumber) =>
      callRoute(transport, routes.whatsappScanQr, { params: { phoneNumber } }, undefined),
  };
}
