import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/domain-error';

/** A NUL character (U+0000) in a URL, percent-encoded. */
const ENCODED_NUL = /%00/i;

/** True when `value` (a parsed JSON body) holds a string with a NUL character, key or value. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  }
  return false;
}

/** The error of a JSON body that holds a NUL character. */
export function nulInBodyError(): DomainError {
  return new DomainError('VALIDATION_ERROR', 'body: text must not contain NUL characters (U+0000)');
}

/**
 * Refuses requests whose path or query holds a NUL character with 400 VALIDATION_ERROR, before
 * routing: no identifier, address or filter contains one, and PostgreSQL cannot compare text
 * with one (the same answer on SQLite, so the two stores behave alike).
 */
export function refuseNulInUrls(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (ENCODED_NUL.test(request.url) || request.url.includes('\u0000')) {
      throw new DomainError(
        'VALIDATION_ERROR',
        'path: the path and query must not contain NUL characters (%00)',
      );
    }
  });
}
