import {
  WEBHOOK_SIGNATURE,
  WEBHOOK_SIGNATURE_PATTERN,
} from '@switchboard/contract/webhook-signature';
import type { WebhookEvent } from '../generated/api-types';
import {
  WebhookInvalidJsonError,
  WebhookMalformedSignatureError,
  WebhookMalformedTimestampError,
  WebhookMissingHeaderError,
  WebhookRawBodyRequiredError,
  WebhookSignatureMismatchError,
  WebhookTimestampInFutureError,
  WebhookTimestampTooOldError,
} from './errors';
import { readHeader, type WebhookHeaders } from './headers';
import { fromHex, hmacSha256, signedContent, timingSafeEqual, toBytes } from './hmac';

/** The header carrying `sha256=<lowercase hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = WEBHOOK_SIGNATURE.signatureHeader;
/** The header carrying the Unix time (seconds) the delivery was signed at. */
export const TIMESTAMP_HEADER = WEBHOOK_SIGNATURE.timestampHeader;
/** How far (seconds) a delivery's timestamp may be from now, as the spec requires. */
export const DEFAULT_TOLERANCE_SECONDS = WEBHOOK_SIGNATURE.toleranceSeconds;

/** The raw request body, exactly as received. */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;

/** What {@link verifyWebhook} needs. */
export interface VerifyWebhookParams {
  /** The raw request body (string, Buffer, Uint8Array or ArrayBuffer), never parsed JSON. */
  payload: WebhookPayload;
  /** The request headers: a Headers object or a plain record, looked up case-insensitively. */
  headers: WebhookHeaders;
  /** The webhook's signing secret, exactly as Switchboard returned it. */
  secret: string;
  /** The largest accepted difference (seconds) between now and `X-Timestamp`; default 300. */
  toleranceSeconds?: number | undefined;
}

const TIMESTAMP_PATTERN = /^\d{1,15}$/;

/**
 * Checks a webhook delivery's `X-Signature` and `X-Timestamp` in constant time and returns the
 * event it carries; throws a {@link WebhookVerificationError} subclass aimed at the mistake.
 * Runs on Node 20+, Deno, Bun, Cloudflare Workers and browsers (WebCrypto only).
 * @example
 * const event = await verifyWebhook({ payload: rawBody, headers: req.headers, secret });
 * if (event.type === 'message.delivered') { … }
 */
export async function verifyWebhook<Event = WebhookEvent>(
  params: VerifyWebhookParams,
): Promise<Event> {
  const { payload, headers, secret } = params;
  const tolerance = params.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const body = rawBodyBytes(payload);

  const signature = readHeader(headers, SIGNATURE_HEADER);
  const timestamp = readHeader(headers, TIMESTAMP_HEADER);
  const missing = [
    ...(signature === undefined ? [SIGNATURE_HEADER] : []),
    ...(timestamp === undefined ? [TIMESTAMP_HEADER] : []),
  ];
  if (signature === undefined || timestamp === undefined) {
    throw new WebhookMissingHeaderError(missing);
  }

  const hex = WEBHOOK_SIGNATURE_PATTERN.exec(signature.trim())?.[1];
  if (hex === undefined) throw new WebhookMalformedSignatureError(signature);
  const signedAt = timestamp.trim();
  if (!TIMESTAMP_PATTERN.test(signedAt)) throw new WebhookMalformedTimestampError(timestamp);

  // The age is checked before the HMAC: a replayed delivery is rejected without crypto work.
  const skew = Math.floor(Date.now() / 1000) - Number(signedAt);
  if (skew > tolerance) throw new WebhookTimestampTooOldError(skew, tolerance);
  if (-skew > tolerance) throw new WebhookTimestampInFutureError(-skew, tolerance);

  const expected = await hmacSha256(secret, signedContent(signedAt, body));
  if (!timingSafeEqual(expected, fromHex(hex))) throw new WebhookSignatureMismatchError();

  try {
    return JSON.parse(new TextDecoder().decode(body)) as Event;
  } catch (cause) {
    throw new WebhookInvalidJsonError(cause);
  }
}

function rawBodyBytes(payload: unknown): Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return toBytes(payload);
  if (payload instanceof ArrayBuffer) return toBytes(payload);
  throw new WebhookRawBodyRequiredError(describe(payload));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined (was the body read before verifying?)';
  if (typeof value === 'object') return 'a parsed object';
  return `a ${typeof value}`;
}
