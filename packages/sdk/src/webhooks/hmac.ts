import { signingPrefix } from '@switchboard/contract/webhook-signature';

const encoder = new TextEncoder();

/** The bytes of a string as UTF-8, or the bytes themselves. */
export function toBytes(value: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof value === 'string') return encoder.encode(value);
  return value instanceof Uint8Array ? value : new Uint8Array(value);
}

/** HMAC-SHA256 of `message` under `secret` with WebCrypto, so it runs on every modern runtime. */
export async function hmacSha256(
  secret: string,
  message: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new Error('Webhook signatures need WebCrypto (globalThis.crypto.subtle).');
  }
  const key = await subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await subtle.sign('HMAC', key, message));
}

/** `<timestamp>.<raw body>` as bytes, without decoding the body, so no byte is re-encoded. */
export function signedContent(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(signingPrefix(timestamp));
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Bytes of an even-length hex string (validated by the caller). */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Compares two byte arrays in time that depends only on their length, so an attacker cannot
 * learn how many leading bytes of a forged signature were right.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
