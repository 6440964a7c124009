import { type AppRouter, isAppRoute } from '@ts-rest/core';
import type { RouterImplementation } from '@ts-rest/fastify';
import { DomainError } from '../domain/domain-error';

/**
 * Handlers for every route of a contract router that answer 501 `NOT_IMPLEMENTED`. Resources
 * whose feature is not built yet are registered with these, so authentication, rate limiting and
 * the envelope already apply to every route of the contract.
 */
export function notImplementedRoutes<T extends AppRouter>(router: T): RouterImplementation<T> {
  const implementation: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(router)) {
    implementation[key] = isAppRoute(entry)
      ? async () => {
          throw new DomainError(
            'NOT_IMPLEMENTED',
            `${entry.method} ${entry.path} is not implemented by this server yet`,
          );
        }
      : notImplementedRoutes(entry);
  }
  return implementation as RouterImplementation<T>;
}
