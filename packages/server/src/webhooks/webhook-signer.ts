import { createHmac } from 'node:crypto';
import { signingPrefix, WEBHOOK_SIGNATURE } from '@switchboard/contract/webhook-signature';

/** The `User-Agent` of every webhook delivery. */
export const WEBHOOK_USER_AGENT = 'Switchboard-Webhooks/1';

/**
 * Signs a webhook body: `sha256=` + lowercase hex HMAC-SHA256 keyed with the secret's UTF-8 bytes
 * over `<timestamp>.<raw body>`. Pass the exact bytes that will be sent, never a re-serialization.
 *
 * @example signWebhook('whsec_abc', 1767225600, '{"id":"evt_1"}') // 'sha256=…'
 */
export function signWebhook(
  secret: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole Unix seconds, got ${timestamp}`);
  }
  const hmac = createHmac('sha256', secret);
  hmac.update(signingPrefix(timestamp));
  hmac.update(rawBody);
  return `${WEBHOOK_SIGNATURE.scheme}${hmac.digest('hex')}`;
}

/**
 * The Standard Webhooks signature (standardwebhooks.com) of the same delivery: `v1,` + base64
 * HMAC-SHA256 over `<webhook-id>.<timestamp>.<raw body>`, keyed with the same secret's UTF-8
 * bytes as `X-Signature` (the libraries' `format: 'raw'` secret).
 *
 * @example signStandardWebhook('whsec_abc', 'evt_1', 1767225600, '{}') // 'v1,…'
 */
function signStandardWebhook(
  secret: string,
  id: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${id}.${timestamp}.`);
  hmac.update(rawBody);
  return `v1,${hmac.digest('base64')}`;
}

/** Converts a time to whole Unix seconds, the unit of `X-Timestamp`. */
export function toUnixSeconds(time: Date | number): number {
  const ms = typeof time === 'number' ? time : time.getTime();
  return Math.floor(ms / 1000);
}

/** What {@link buildDeliveryHeaders} needs to sign and label one delivery attempt. */
export interface DeliveryHeaderInput {
  /** The webhook's current secret (a rotated secret signs from the next attempt on). */
  secret: string;
  /** The exact body bytes that will be sent. */
  body: string | Uint8Array;
  /** Time of this attempt; signed as Unix seconds, so each retry carries a fresh timestamp. */
  timestamp: Date | number;
  /** The correlation id stored with the event (`cor_` + 32 hex). */
  correlationId: string;
  /** The event envelope's `id` (`evt_…`). */
  eventId: string;
  /** The event envelope's `type`. */
  eventType: string;
}

/**
 * Builds the headers of one delivery attempt: `Content-Type`, `User-Agent`, `X-Signature`,
 * `X-Timestamp`, `X-Correlation-Id`, the unsigned routing conveniences `X-Event-Id` and
 * `X-Event-Type` (the signed body holds the same values and is the one to trust), and the
 * Standard Webhooks trio `webhook-id` (the event id, the same on every retry),
 * `webhook-timestamp` and `webhook-signature`, so receivers built on those libraries verify
 * Switchboard deliveries as they are.
 */
export function buildDeliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const timestamp = toUnixSeconds(input.timestamp);
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_SIGNATURE.signatureHeader]: signWebhook(input.secret, timestamp, input.body),
    [WEBHOOK_SIGNATURE.timestampHeader]: String(timestamp),
    [WEBHOOK_SIGNATURE.correlationHeader]: input.correlationId,
    'X-Event-Id': input.eventId,
    'X-Event-Type': input.eventType,
    'webhook-id': input.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(input.secret, input.eventId, timestamp, input.body),
  };
}
