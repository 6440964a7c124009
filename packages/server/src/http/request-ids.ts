import type { IncomingMessage } from 'node:http';
import { newCorrelationId, newId } from '../ids';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const CORRELATION_ID_PATTERN = /^cor_[0-9a-fA-F]{32}$/;

function single(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' ? header : undefined;
}

/**
 * The request id of a request: the caller's `X-Request-Id` when it is 1 to 128 characters of
 * `[A-Za-z0-9._-]`, otherwise a fresh `req_<uuid v7>`.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const supplied = single(raw.headers['x-request-id']);
  return supplied !== undefined && REQUEST_ID_PATTERN.test(supplied) ? supplied : newId('req');
}

const correlationIds = new WeakMap<IncomingMessage, string>();

/**
 * The correlation id of a request: the caller's `X-Correlation-Id` when it is `cor_<32 hex>`,
 * otherwise a freshly minted one. Stable for the life of the request.
 */
export function correlationIdOf(raw: IncomingMessage): string {
  let id = correlationIds.get(raw);
  if (id === undefined) {
    const supplied = single(raw.headers['x-correlation-id']);
    id =
      supplied !== undefined && CORRELATION_ID_PATTERN.test(supplied)
        ? supplied
        : newCorrelationId();
    correlationIds.set(raw, id);
  }
  return id;
}
