/**
 * A fresh idempotency key for a send, so that retrying it after a dropped connection returns the
 * first message instead of sending a second one.
 */
export function generateIdempotencyKey(): string {
  return `sdk_${globalThis.crypto.randomUUID()}`;
}
