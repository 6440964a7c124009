import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header Twilio signs its webhook calls with. */
export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

/**
 * The form parameters of a Twilio call, in the order they arrived; a repeated name (`MediaUrl`)
 * appears once per value.
 */
export type TwilioParams = readonly (readonly [string, string])[];

/**
 * The `X-Twilio-Signature` Twilio computes for a call: base64 HMAC-SHA1, keyed by the account's
 * auth token, over the full URL it called followed by every POST parameter name and value, names
 * sorted (a repeated name contributes each of its values, sorted).
 * @example twilioSignature('12345', 'https://example.com/sms', [['Body', 'hi']])
 */
export function twilioSignature(authToken: string, url: string, params: TwilioParams): string {
  const byName = new Map<string, string[]>();
  for (const [name, value] of params) byName.set(name, [...(byName.get(name) ?? []), value]);
  let data = url;
  for (const name of [...byName.keys()].sort()) {
    for (const value of [...new Set(byName.get(name))].sort()) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * The URL as Twilio may have signed it: as given, and with its scheme's default port added or
 * removed (Twilio's own validators try both, since proxies rewrite one into the other).
 */
function urlVariants(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const defaultPort =
    parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '';
  if (defaultPort === '') return [url];
  const authority =
    parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : '';
  const rest = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  const withPort = `${parsed.protocol}//${authority}${parsed.hostname}:${defaultPort}${rest}`;
  const withoutPort = `${parsed.protocol}//${authority}${parsed.hostname}${rest}`;
  if (parsed.port !== '' && parsed.port !== defaultPort) return [url];
  return [...new Set([url, withPort, withoutPort])];
}

/**
 * True when `signature` is what Twilio computes for a call to `url` with `params`, checked in
 * constant time against the URL with and without its default port, and with each of `fragments`
 * put back: Twilio signs the URL as configured, connection-override fragment included, although
 * the fragment never reaches the receiver (twilio-node keeps the hash in the URLs it checks,
 * src/webhooks/webhooks.ts:77).
 */
export function isValidTwilioSignature(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: TwilioParams,
  fragments: readonly string[] = [],
): boolean {
  if (!signature) return false;
  const given = Buffer.from(signature);
  let valid = false;
  const signed = [url, ...fragments.map((fragment) => `${url.split('#')[0]}${fragment}`)];
  for (const variant of signed.flatMap(urlVariants)) {
    const expected = Buffer.from(twilioSignature(authToken, variant, params));
    if (expected.length === given.length && timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

/** The parameters of a form-encoded body, in order. */
export function parseTwilioForm(body: Uint8Array): TwilioParams {
  return [...new URLSearchParams(Buffer.from(body).toString('utf8')).entries()];
}
