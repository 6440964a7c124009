import { WEBHOOK_SIGNATURE } from '@switchboard/contract/webhook-signature';
import { hmacSha256, signedContent, toBytes, toHex } from './hmac';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, type WebhookPayload } from './verify';

/** What {@link signWebhookPayload} needs. */
export interface SignWebhookPayloadParams {
  /** The exact body you will send to your handler. */
  payload: WebhookPayload;
  /** The signing secret your handler verifies with. */
  secret: string;
  /** When the delivery was signed: Unix seconds or a Date; default now. */
  timestamp?: number | Date | undefined;
}

/**
 * The signature headers of a delivery: `X-Signature` is
 * `sha256=<lowercase hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, `X-Timestamp` Unix seconds.
 */
// A type alias, not an interface, so that it is assignable to plain header records.
export type WebhookSignatureHeaders = { 'X-Signature': string; 'X-Timestamp': string };

/**
 * Signs a payload the way Switchboard signs deliveries, so you can test your webhook handler.
 * @example
 * const body = JSON.stringify(event);
 * const headers = await signWebhookPayload({ payload: body, secret });
 * await fetch('http://localhost:8080/hooks', { method: 'POST', body, headers });
 */
export async function signWebhookPayload(
  params: SignWebhookPayloadParams,
): Promise<WebhookSignatureHeaders> {
  const { timestamp = new Date() } = params;
  const seconds =
    timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : Math.floor(timestamp);
  const signedAt = String(seconds);
  const mac = await hmacSha256(params.secret, signedContent(signedAt, toBytes(params.payload)));
  return {
    [SIGNATURE_HEADER]: `${WEBHOOK_SIGNATURE.scheme}${toHex(mac)}`,
    [TIMESTAMP_HEADER]: signedAt,
  };
}
