import { createHmac, randomBytes } from 'node:crypto';

/** A 34-character Twilio SID: two-letter prefix and 32 hex digits. */
export function twilioSid(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

/** A date as Twilio writes it (RFC 2822, GMT): `Wed, 25 Nov 2026 07:32:20 +0000`. */
export function rfc2822(at: number): string {
  return new Date(at).toUTCString().replace('GMT', '+0000');
}

/** The GSM 03.38 basic character set; anything else makes a message UCS-2. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** GSM extension characters: two septets each. */
const GSM_EXTENDED = '^{}\\[~]|€\f';

/**
 * How many SMS segments a body takes, as carriers count them: GSM-7 (160 alone, 153 per part of a
 * longer message, extension characters counting twice) or UCS-2 (70, then 67, in UTF-16 units).
 */
export function segmentsOf(body: string): number {
  if (body === '') return 1;
  let septets = 0;
  let gsm = true;
  for (const char of body) {
    if (GSM_BASIC.includes(char)) septets += 1;
    else if (GSM_EXTENDED.includes(char)) septets += 2;
    else gsm = false;
  }
  if (gsm) return septets <= 160 ? 1 : Math.ceil(septets / 153);
  return body.length <= 70 ? 1 : Math.ceil(body.length / 67);
}

/**
 * `X-Twilio-Signature` of a call, computed as Twilio documents it (the fake's own implementation,
 * kept apart from the adapter's so each checks the other): base64 HMAC-SHA1 over the URL and the
 * sorted parameters.
 */
export function signTwilioCall(
  authToken: string,
  url: string,
  params: readonly (readonly [string, string])[],
): string {
  const sorted = [...params].sort(([a, x], [b, y]) =>
    a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1,
  );
  const data = url + sorted.map(([name, value]) => name + value).join('');
  return createHmac('sha1', authToken).update(data).digest('base64');
}

/** A Twilio error body: `{code, message, more_info, status}`. */
export function twilioErrorBody(code: number, message: string, status: number) {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}
