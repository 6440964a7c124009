/** Why a webhook delivery failed verification. */
export type WebhookVerificationReason =
  | 'raw_body_required'
  | 'missing_header'
  | 'malformed_signature'
  | 'malformed_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'invalid_json';

/**
 * The base of every error `verifyWebhook` throws; answer the delivery with 400 when you catch it.
 * `reason` tells the cases apart without `instanceof`.
 */
export class WebhookVerificationError extends Error {
  /** The machine-readable cause. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.reason = reason;
  }
}

/** The payload was a parsed object (or nothing) instead of the raw request body. */
export class WebhookRawBodyRequiredError extends WebhookVerificationError {
  constructor(received: string) {
    super(
      'raw_body_required',
      `verifyWebhook needs the raw request body (a string, Buffer or Uint8Array), not parsed JSON: the signature covers the exact bytes sent. Received ${received}.`,
    );
  }
}

/** `X-Signature` or `X-Timestamp` is absent. */
export class WebhookMissingHeaderError extends WebhookVerificationError {
  /** The header names that are missing. */
  readonly headers: readonly string[];

  constructor(headers: readonly string[]) {
    super(
      'missing_header',
      `Missing webhook header ${headers.join(' and ')}: pass the request headers unchanged.`,
    );
    this.headers = headers;
  }
}

/** `X-Signature` is not `sha256=` followed by 64 hex characters. */
export class WebhookMalformedSignatureError extends WebhookVerificationError {
  constructor(value: string) {
    super(
      'malformed_signature',
      `X-Signature must be "sha256=" followed by 64 hexadecimal characters; received "${truncate(value)}".`,
    );
  }
}

/** `X-Timestamp` is not a whole number of Unix seconds. */
export class WebhookMalformedTimestampError extends WebhookVerificationError {
  constructor(value: string) {
    super(
      'malformed_timestamp',
      `X-Timestamp must be a Unix time in whole seconds; received "${truncate(value)}".`,
    );
  }
}

/** The delivery was signed longer ago than the tolerance allows (a replay, or a stale clock). */
export class WebhookTimestampTooOldError extends WebhookVerificationError {
  constructor(ageSeconds: number, toleranceSeconds: number) {
    super(
      'timestamp_too_old',
      `Webhook timestamp is ${ageSeconds} s old (tolerance ${toleranceSeconds} s): a replay, or this clock is behind.`,
    );
  }
}

/** The delivery claims to be signed further in the future than the tolerance allows. */
export class WebhookTimestampInFutureError extends WebhookVerificationError {
  constructor(aheadSeconds: number, toleranceSeconds: number) {
    super(
      'timestamp_in_future',
      `Webhook timestamp is ${aheadSeconds} s in the future (tolerance ${toleranceSeconds} s): check this clock${aheadSeconds > 1e9 ? ' and that it is in seconds' : ''}.`,
    );
  }
}

/** The HMAC does not match: the secret is wrong, or the body or timestamp were changed. */
export class WebhookSignatureMismatchError extends WebhookVerificationError {
  constructor() {
    super(
      'signature_mismatch',
      'Webhook signature does not match: use the current secret and the body exactly as received.',
    );
  }
}

/** The signature is valid but the body is not JSON. */
export class WebhookInvalidJsonError extends WebhookVerificationError {
  constructor(cause: unknown) {
    super('invalid_json', 'Webhook body is correctly signed but is not valid JSON.', { cause });
  }
}

function truncate(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}
