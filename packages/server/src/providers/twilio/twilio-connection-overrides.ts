/**
 * The webhook connection overrides the adapter asks of Twilio on every URL it gives it
 * (https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides): up to three more
 * tries (`rc`, at most 5) on any failure (`rp=all`), so a call the gateway answers 5xx because it
 * could not record it (or cannot be reached for a moment) comes again instead of being lost.
 * Twilio's default is one more try on connect failures only.
 */
export const TWILIO_RETRY_FRAGMENT = '#rc=3&rp=all';

/**
 * `url` with the adapter's connection overrides as its fragment (replacing any fragment it had).
 * @example withRetryOverrides('https://gw.example.com/providers/x/webhook/t?attempt=a')
 * // 'https://gw.example.com/providers/x/webhook/t?attempt=a#rc=3&rp=all'
 */
export function withRetryOverrides(url: string): string {
  return `${withoutFragment(url)}${TWILIO_RETRY_FRAGMENT}`;
}

/** `url` without its fragment: what reaches the receiver. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
