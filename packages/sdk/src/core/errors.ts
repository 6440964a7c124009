import type { ErrorCode } from '../generated/api-types';
import { errorCodes } from '../generated/route-table';
import { parseRetryAfterSeconds } from './retry';

/** What the SDK knows about a failed HTTP exchange when it builds an error. */
export interface ErrorResponseInit {
  /** HTTP status of the response. */
  status: number;
  /** The parsed response body (the failure envelope, or whatever a proxy answered). */
  body: unknown;
  /** The response headers. */
  headers: Headers;
}

/**
 * The base of every error the SDK throws: HTTP error responses, connection failures, timeouts and
 * aborts. `status`, `code` and `requestId` are set when the server answered.
 * @example
 * try { await client.messages.get(id); }
 * catch (err) { if (err instanceof SwitchboardError && err.code === 'NOT_FOUND') { … } }
 */
export class SwitchboardError extends Error {
  /** HTTP status of the response; undefined when no response arrived. */
  readonly status: number | undefined;
  /**
   * The spec's error code from the failure envelope; undefined when no response arrived or the
   * response was not a Switchboard envelope (a proxy's error page, or a code this SDK version does
   * not know; `body` then holds what arrived).
   */
  readonly code: ErrorCode | undefined;
  /** The `requestId` of the failed request, to quote in a support ticket. */
  readonly requestId: string | undefined;
  /** The response headers; undefined when no response arrived. */
  readonly headers: Headers | undefined;
  /** The raw response body, parsed as JSON when it was JSON. */
  readonly body: unknown;

  constructor(
    message: string,
    init: Partial<ErrorResponseInit> & {
      code?: ErrorCode | undefined;
      requestId?: string | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
  }

  /**
   * Builds the error class that matches an HTTP status from a failure response.
   * @example throw SwitchboardError.fromResponse({ status: 404, body, headers });
   */
  static fromResponse(init: ErrorResponseInit): SwitchboardError {
    const { code, message, requestId } = readFailureEnvelope(init);
    const fields = { ...init, code, requestId };
    if (init.status === 429) {
      const retryAfter = parseRetryAfterSeconds(init.headers.get('retry-after'));
      return new RateLimitError(message, { ...fields, retryAfter });
    }
    const ErrorClass = errorClassForStatus(init.status);
    return new ErrorClass(message, fields);
  }
}

type ResponseErrorInit = ErrorResponseInit & {
  code: ErrorCode | undefined;
  requestId: string | undefined;
};

/** 400: the request was invalid (`VALIDATION_ERROR`, `INVALID_PHONE_NUMBER`, `INVALID_STATUS`…). */
export class BadRequestError extends SwitchboardError {
  declare readonly status: 400;
}

/** 401 `UNAUTHORIZED`: the API key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends SwitchboardError {
  declare readonly status: 401;
}

/** 403: the key has no customer, the sender address or number is not yours. */
export class PermissionDeniedError extends SwitchboardError {
  declare readonly status: 403;
}

/** 404: the resource does not exist or is not yours. */
export class NotFoundError extends SwitchboardError {
  declare readonly status: 404;
}

/** 409: the request conflicts with the resource's state (`ALREADY_DELETED`, `WEBHOOK_DUPLICATE`…). */
export class ConflictError extends SwitchboardError {
  declare readonly status: 409;
}

/** 410 `DEPRECATED`: the endpoint has been removed. */
export class GoneError extends SwitchboardError {
  declare readonly status: 410;
}

/** 429 `RATE_LIMIT_EXCEEDED`: too many requests for this API key. */
export class RateLimitError extends SwitchboardError {
  declare readonly status: 429;
  /** Seconds to wait before the next request, from the `Retry-After` header. */
  readonly retryAfter: number | undefined;

  constructor(message: string, init: ResponseErrorInit & { retryAfter: number | undefined }) {
    super(message, init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the server or an upstream provider failed (`INTERNAL_ERROR`, `PROVIDER_TIMEOUT`…). */
export class InternalServerError extends SwitchboardError {}

/** No response arrived: the connection failed or was dropped. */
export class APIConnectionError extends SwitchboardError {
  declare readonly status: undefined;

  constructor(message = 'Connection error.', options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/** No response arrived within the configured `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  constructor(message = 'Request timed out.', options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/** The caller's `AbortSignal` aborted the request. */
export class APIUserAbortError extends SwitchboardError {
  declare readonly status: undefined;

  constructor(message = 'Request was aborted.', options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

type ResponseErrorClass = new (message: string, init: ResponseErrorInit) => SwitchboardError;

const CLASS_BY_STATUS: Readonly<Record<number, ResponseErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
};

function errorClassForStatus(status: number): ResponseErrorClass {
  if (status >= 500) return InternalServerError;
  return CLASS_BY_STATUS[status] ?? SwitchboardError;
}

function readFailureEnvelope(init: ErrorResponseInit): {
  code: ErrorCode | undefined;
  message: string;
  requestId: string | undefined;
} {
  const body = isRecord(init.body) ? init.body : undefined;
  const error = body && isRecord(body.error) ? body.error : undefined;
  const requestId =
    typeof body?.requestId === 'string'
      ? body.requestId
      : (init.headers.get('x-request-id') ?? undefined);
  const rawCode = error?.code;
  const code =
    typeof rawCode === 'string' && errorCodes.includes(rawCode)
      ? (rawCode as ErrorCode)
      : undefined;
  if (error && typeof error.message === 'string') {
    return { code, message: error.message, requestId };
  }
  return { code, message: describeUnexpectedBody(init.status, init.body), requestId };
}

function describeUnexpectedBody(status: number, body: unknown): string {
  if (typeof body === 'string' && body.length > 0) {
    return `HTTP ${status}: ${body.length > 200 ? `${body.slice(0, 200)}…` : body}`;
  }
  return `HTTP ${status} with no Switchboard error body`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
