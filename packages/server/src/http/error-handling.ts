import type { ErrorCode } from '@switchboard/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDomainError } from '../domain/domain-error';
import { storeUnavailableReason } from '../store/store-unavailable';
import { sendFailure } from './envelope';
import { containsNul, nulInBodyError, refuseNulInUrls } from './nul-characters';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The spec code for an error Fastify itself raised (body parsing, limits), by HTTP status. */
const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_ERROR',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT_EXCEEDED',
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as Partial<FastifyError>).statusCode === 'number';
}

/** The message of an error raised by Fastify, phrased for the API's callers. */
function fastifyErrorMessage(error: FastifyError, bodyLimit: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'body: malformed JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than ${bodyLimit} bytes`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'A request with a body must use Content-Type: application/json';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The body length does not match Content-Length';
    default:
      return error.message;
  }
}

/**
 * Answers every error with the failure envelope: domain errors with their code, errors Fastify
 * raises (malformed JSON, body too large, wrong content type) with the matching spec code, a
 * database that cannot be used now (locked, read-only, full) as 503 `SERVICE_UNAVAILABLE` with
 * `Retry-After`, and anything else as a 500 `INTERNAL_ERROR` whose details go to the log, never to
 * the caller.
 */
function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (isDomainError(error)) {
    if (error.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    else if (error.status >= 500) {
      request.log.warn({ code: error.code, reason: error.message }, 'request failed');
    }
    return sendFailure(request, reply, error.code, error.message);
  }
  if (isFastifyError(error) && error.statusCode !== undefined && error.statusCode < 500) {
    const code = CODE_BY_STATUS[error.statusCode] ?? 'VALIDATION_ERROR';
    return sendFailure(
      request,
      reply,
      code,
      fastifyErrorMessage(error, request.routeOptions.bodyLimit ?? 0),
    );
  }
  const unavailable = storeUnavailableReason(error);
  if (unavailable !== undefined) {
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', 5);
    return sendFailure(
      request,
      reply,
      'SERVICE_UNAVAILABLE',
      `The database cannot be used right now (${unavailable}); nothing was changed: retry shortly`,
    );
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendFailure(request, reply, 'INTERNAL_ERROR', 'An unexpected error occurred');
}

/**
 * Fastify's own router errors (`frameworkErrors`), answered in the envelope: a path with malformed
 * percent-encoding (`%`, `%ZZ`, an overlong UTF-8 `%C0%AF`) or a path parameter longer than the
 * router takes (500 characters; Fastify would answer 414 in its own body) is a 400
 * `VALIDATION_ERROR`.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  // No hook runs before a router error: the request id header is set here.
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendFailure(
      request,
      reply,
      'VALIDATION_ERROR',
      'path: not valid percent-encoding (encode % as %25)',
    );
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendFailure(
      request,
      reply,
      'VALIDATION_ERROR',
      'path: a parameter is longer than 500 characters',
    );
  }
  return handleError(error, request, reply);
}

/**
 * Wires the envelope into the app: the error handler, the not-found handler (405 with `Allow`
 * when the path exists under other methods), a JSON body parser that accepts an empty body, and
 * the refusal of NUL characters in URLs and bodies.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(handleError);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? request.url;
    const allowed = METHODS.filter(
      (method) => method !== request.method && app.findRoute({ method, url: path }) !== null,
    );
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendFailure(
        request,
        reply,
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
      );
    }
    return sendFailure(request, reply, 'NOT_FOUND', `No route ${request.method} ${path}`);
  });

  // Bodies are JSON only: without the text/plain parser, other types answer 415.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // Clients that always send Content-Type: application/json also send it on bodiless POSTs.
    if (body === '') {
      done(null, undefined);
      return;
    }
    const text = body as string;
    // A NUL can only arrive escaped (a raw one is not JSON): scan only bodies that have `\u0000`.
    if (!/\\u0000/i.test(text)) {
      parseJson(request, text, done);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) done(error, undefined);
      else if (containsNul(value)) done(nulInBodyError(), undefined);
      else done(null, value);
    });
  });
  refuseNulInUrls(app);
}
