import { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type ErrorStatus } from '../errors';
import { component, doc } from '../schema-annotations';

/**
 * The key under which a schema refinement names the spec error code it stands for.
 * The server reads it from a zod issue's `params` to answer with that code instead of
 * `VALIDATION_ERROR`.
 */
export const ERROR_CODE_PARAM = 'errorCode';

/** Adds a custom issue carrying a spec error code (see {@link ERROR_CODE_PARAM}). */
export function addCodedIssue(
  ctx: z.RefinementCtx,
  errorCode: ErrorCode,
  message: string,
  path: (string | number)[] = [],
): void {
  ctx.addIssue({
    code: z.ZodIssueCode.custom,
    message,
    path,
    params: { [ERROR_CODE_PARAM]: errorCode },
  });
}

/** E.164: `+` followed by 2 to 15 digits, as the spec states. */
export const E164_PATTERN = /^\+\d{2,15}$/;
/** An e-mail style address (iMessage account identifier). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A WhatsApp group JID: `<id>@g.us`. */
export const GROUP_JID_PATTERN = /^[0-9A-Za-z-]+@g\.us$/;
/** Something a caller probably meant as a phone number (digits, spaces, dashes, dots, parens, +). */
export const PHONE_LIKE_PATTERN = /^\+?[\d\s().-]{2,}$/;

/**
 * True when the value is an absolute `http:` or `https:` URL with a host. Outbound URLs (webhooks,
 * callbackUrl, media and attachment URLs) are checked syntactically here; the server then requires
 * https and a public address unless it runs with `WEBHOOK_ALLOW_PRIVATE_URLS=true` (development and
 * tests), so the scheme rule lives with the address rules, in one place.
 */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The message of an outbound URL that is not an absolute http(s) URL. */
export const OUTBOUND_URL_MESSAGE = 'must be an absolute https:// URL';

/** True when the value is an E.164 phone number. */
export function isE164(value: string): boolean {
  return E164_PATTERN.test(value);
}

/** An E.164 phone number; a bad value answers `INVALID_PHONE_NUMBER`. */
export const PhoneNumber = doc(
  z.string().superRefine((value, ctx) => {
    if (!E164_PATTERN.test(value)) {
      addCodedIssue(
        ctx,
        'INVALID_PHONE_NUMBER',
        `"${value}" is not an E.164 phone number (+ and 2 to 15 digits)`,
      );
    }
  }),
  { description: 'E.164 phone number: `+` followed by 2 to 15 digits.', example: '+14155550100' },
);

/** An ISO 8601 timestamp as the API writes it. */
export const Timestamp = doc(z.string(), {
  format: 'date-time',
  description: 'ISO 8601 timestamp (UTC).',
  example: '2026-11-21T10:00:00.000Z',
});

/** A `msg_` message identifier. */
export const MessageId = doc(z.string(), {
  description: 'Internal message id, `msg_<uuid v7>`.',
  example: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
});

/** A UUID. */
export const Uuid = doc(z.string().uuid(), {
  format: 'uuid',
  example: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
});

/** The delivery channels. */
export const Channel = component('Channel', z.enum(['imessage', 'sms', 'whatsapp']), {
  description: 'Delivery channel.',
});
/** A delivery channel. */
export type Channel = z.infer<typeof Channel>;

/** The health values of a provider instance. */
export const HealthStatus = z.enum(['healthy', 'degraded', 'unhealthy', 'unknown']);

/** A request id, echoed on every response. */
export const RequestId = doc(z.string(), {
  description: 'Identifier of this request (`req_…`, or the caller-supplied `X-Request-Id`).',
  example: 'req_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
});

/** Wraps a data schema in the success envelope `{success: true, data, requestId}`. */
export function envelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({ success: z.literal(true), data, requestId: RequestId });
}

/** The error object inside a failure envelope. */
export const ErrorBody = z.object({
  code: doc(z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]), {
    description: 'Machine-readable error code; see docs/errors.md.',
  }),
  message: doc(z.string(), { description: 'Human-readable explanation.' }),
});

const ERROR_ENVELOPE_DOCS = {
  description: 'Failure envelope.',
  example: {
    success: false,
    error: { code: 'VALIDATION_ERROR', message: 'content.text: must be at most 10000 characters' },
    requestId: 'req_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
  },
};

/**
 * The zod type of {@link ErrorEnvelope}, named so that declaration files refer to it instead of
 * spelling out its shape (and the list of every error code) at each of the hundreds of places a
 * route's error responses use it.
 */
export interface ErrorEnvelopeSchema
  extends z.ZodObject<{
    success: z.ZodLiteral<false>;
    error: typeof ErrorBody;
    requestId: typeof RequestId;
  }> {}

/** The failure envelope `{success: false, error: {code, message}, requestId}`. */
export const ErrorEnvelope: ErrorEnvelopeSchema = component(
  'ErrorEnvelope',
  z.object({ success: z.literal(false), error: ErrorBody, requestId: RequestId }),
  ERROR_ENVELOPE_DOCS,
);
/** The failure envelope. */
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

type ErrorResponses<C extends ErrorCode> = { [S in ErrorStatus<C>]: typeof ErrorEnvelope };

/**
 * The error codes a response schema stands for, so the OpenAPI generator can list them in the
 * response's description. Keyed by the schema instance {@link errors} creates.
 */
export const ERROR_RESPONSE_CODES = new WeakMap<object, ErrorCode[]>();

/**
 * The error responses of a route, grouped by HTTP status; each response is documented with the
 * codes that can appear under it.
 * @example responses: { 202: envelope(SendResult), ...errors('VALIDATION_ERROR', 'NOT_FOUND') }
 */
export function errors<C extends ErrorCode>(...codes: C[]): ErrorResponses<C> {
  const out: Record<number, typeof ErrorEnvelope> = {};
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    let schema = out[status];
    if (!schema) {
      schema = component('ErrorEnvelope', ErrorEnvelope.extend({}), ERROR_ENVELOPE_DOCS);
      out[status] = schema;
      ERROR_RESPONSE_CODES.set(schema, []);
    }
    ERROR_RESPONSE_CODES.get(schema)?.push(code);
  }
  return out as ErrorResponses<C>;
}

/** Lists the error codes of a route for its OpenAPI description, grouped by status. */
export function describeErrors(codes: readonly ErrorCode[]): string {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, list]) => `${status}: ${list.map((c) => `\`${c}\``).join(', ')}`)
    .join('; ');
}

/** Responses every authenticated route can give (401, 403, 429, 500, 503). */
export const commonResponses = errors(
  'UNAUTHORIZED',
  'FORBIDDEN',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
);

/** Cursor pagination block of list responses. */
export const Pagination = component(
  'Pagination',
  z.object({
    hasMore: z.boolean(),
    nextCursor: doc(z.string().nullable(), {
      description: 'Pass as `cursor` to fetch the next page; null when there is none.',
    }),
  }),
);

/** `limit` and `cursor` query parameters of list endpoints. */
export const PageQuery = z.object({
  limit: doc(z.coerce.number().int().min(1).max(100).default(50), {
    description: 'Page size, 1 to 100.',
    example: 50,
  }),
  cursor: doc(z.string().min(1).optional(), { description: 'Cursor from a previous page.' }),
});
