import fastifyRateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { DomainError } from '../domain/domain-error';
import type { RateLimitStore } from '../rate-limit/rate-limit-store';
import { routeMetadataOf } from './contract-route';

/** The spec's window: limits are per minute. */
const WINDOW_MS = 60_000;

/** Adapts a {@link RateLimitStore} to the store protocol of @fastify/rate-limit. */
function storeConstructor(store: RateLimitStore, clock: Clock): FastifyRateLimitStoreCtor {
  return class implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      store.hit(key, timeWindow).then(
        (window) =>
          callback(null, { current: window.count, ttl: Math.max(0, window.resetAt - clock.now()) }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** Options of {@link createRateLimitHook}. */
export interface RateLimitOptions {
  /** Requests allowed per API key per minute. */
  perMinute: number;
  /** Where the counters live. */
  store: RateLimitStore;
  /** The time source (the store's too). */
  clock: Clock;
}

/**
 * Registers @fastify/rate-limit on `scope` and returns the `onRequest` hook that applies it after
 * authentication: fixed one-minute windows per API key, `X-RateLimit-Limit`, `-Remaining` and
 * `-Reset` (Unix seconds of the window's end) on every counted response, and 429
 * `RATE_LIMIT_EXCEEDED` with `Retry-After` past the limit. Requests without an API key (health,
 * the operator API, failed authentication) are not counted.
 */
export async function createRateLimitHook(scope: FastifyInstance, options: RateLimitOptions) {
  await scope.register(fastifyRateLimit, {
    global: false,
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    store: storeConstructor(options.store, options.clock),
    keyGenerator: (request) => `api-key:${request.auth?.apiKey.id}`,
  });
  const limit = scope.createRateLimit();

  return async function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!request.auth || routeMetadataOf(request).rateLimited === false) return;
    const result = await limit(request);
    if (result.isAllowed) return;
    const resetAt = Math.ceil((options.clock.now() + result.ttl) / 1000);
    reply.header('x-ratelimit-limit', result.max);
    reply.header('x-ratelimit-remaining', result.remaining);
    reply.header('x-ratelimit-reset', resetAt);
    if (result.isExceeded) {
      const retryAfter = Math.max(1, result.ttlInSeconds);
      reply.header('retry-after', retryAfter);
      throw new DomainError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${result.max} requests per minute exceeded; retry in ${retryAfter} s`,
      );
    }
  };
}
