import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyService } from '../domain/api-keys/api-key-service';
import { DomainError } from '../domain/domain-error';
import type { ApiKeyRecord } from '../store/api-key-repository';
import type { CustomerRecord } from '../store/customer-repository';
import { routeMetadataOf } from './contract-route';

/** Who is calling: the customer and the key it authenticated with. */
export interface RequestAuth {
  /** The customer the key belongs to: every query of the request is scoped to it. */
  customer: CustomerRecord;
  /** The key used (rate limits count per key). */
  apiKey: ApiKeyRecord;
}

/** The one answer for missing, malformed, unknown and revoked credentials. */
const UNAUTHORIZED_MESSAGE = 'Missing or invalid credentials: send Authorization: Bearer <API key>';

/** The token of an `Authorization: Bearer <token>` header. */
function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** True when `header` is `Bearer <expected>` (compared in constant time). */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const presented = bearerToken(header);
  return presented !== undefined && secretsMatch(presented, expected);
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
function secretsMatch(presented: string, expected: string): boolean {
  return timingSafeEqual(sha256(presented), sha256(expected));
}

function unauthorized(reply: FastifyReply): DomainError {
  reply.header('www-authenticate', 'Bearer realm="switchboard"');
  return new DomainError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
}

/**
 * The authenticated customer of a request.
 * @throws {Error} on a route that does not authenticate with an API key (a programming error).
 */
export function customerOf(request: FastifyRequest): CustomerRecord {
  if (!request.auth) throw new Error(`${request.routeOptions.url} has no API-key authentication`);
  return request.auth.customer;
}

/** The API key that authenticated the request (only on routes that take one). */
export function apiKeyOf(request: FastifyRequest): ApiKeyRecord {
  if (!request.auth) throw new Error(`${request.routeOptions.url} has no API-key authentication`);
  return request.auth.apiKey;
}

/** Dependencies of {@link createAuthenticationHook}. */
export interface AuthenticationOptions {
  /** Checks API keys. */
  apiKeys: ApiKeyService;
  /** The operator token; the admin routes are not registered without one. */
  adminToken: string | undefined;
}

/**
 * The `onRequest` hook that authenticates each contract route as its metadata says: none
 * (`auth: false`), the operator token (`auth: 'admin'`) or a customer API key (the default), which
 * sets `request.auth`.
 */
export function createAuthenticationHook(options: AuthenticationOptions) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { auth } = routeMetadataOf(request);
    // `GET /metrics` checks its own tokens (or is open by the operator's choice): routes/health.ts.
    if (auth === false || auth === 'metrics') return;
    const token = bearerToken(request.headers.authorization);
    if (auth === 'admin') {
      if (!options.adminToken || token === undefined || !secretsMatch(token, options.adminToken)) {
        throw unauthorized(reply);
      }
      return;
    }
    const result = await options.apiKeys.authenticate(token);
    if (result.outcome === 'unauthorized') throw unauthorized(reply);
    if (result.outcome === 'forbidden') {
      throw new DomainError('FORBIDDEN', 'The customer of this API key no longer exists');
    }
    request.auth = { customer: result.customer, apiKey: result.apiKey };
  };
}
