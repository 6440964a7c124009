/**
 * The webhook signature format (spec, Authentication rule 7), defined once: the server signs with
 * it and the SDK verifies with it. Dependency-free, so the SDK's verifier bundles it whole.
 *
 * `X-Signature: sha256=<lowercase hex HMAC-SHA256>` keyed with the webhook secret's UTF-8 bytes
 * over the signing string `<X-Timestamp>.<raw request body>` (literal period, the exact bytes
 * sent); `X-Timestamp` is Unix seconds; receivers refuse a timestamp more than 300 seconds away.
 */
export const WEBHOOK_SIGNATURE = {
  /** The header carrying the signature. */
  signatureHeader: 'X-Signature',
  /** The header carrying the signing time, Unix seconds. */
  timestampHeader: 'X-Timestamp',
  /** The header carrying the correlation id of the request that caused the event. */
  correlationHeader: 'X-Correlation-Id',
  /** What the signature value starts with, before the hex digest. */
  scheme: 'sha256=',
  /** The HMAC's hash. */
  algorithm: 'SHA-256',
  /** The largest accepted difference between now and `X-Timestamp`, in seconds. */
  toleranceSeconds: 300,
} as const;

/** A well-formed `X-Signature` value; the first group is the hex digest. */
export const WEBHOOK_SIGNATURE_PATTERN = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * What goes before the raw body in the signing string: the timestamp and a literal period.
 * @example signingPrefix(1767225600) // '1767225600.'
 */
export function signingPrefix(timestamp: number | string): string {
  return `${timestamp}.`;
}
