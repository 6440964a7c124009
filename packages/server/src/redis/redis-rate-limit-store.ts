import type { Clock } from '../clock';
import type { RateLimitStore, RateLimitWindow } from '../rate-limit/rate-limit-store';
import type { RedisConnection } from './redis-connection';

/**
 * {@link RateLimitStore} in Redis, shared by every server process: one transaction per hit
 * (`INCR`, `PEXPIRE … NX` so the window starts at its first hit, `PTTL`), so the limit per key and
 * window holds across processes exactly. While Redis cannot be reached, hits count in `fallback`
 * (this process's own store): the limit then holds per process, and requests never wait.
 */
export class RedisRateLimitStore implements RateLimitStore {
  /** Counts in `redis` under `prefix`, falling back to `fallback`, on `clock`. */
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly fallback: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  async hit(key: string, windowMs: number): Promise<RateLimitWindow> {
    const redisKey = `${this.prefix}rate:${key}`;
    try {
      const results = await this.redis.commands
        .multi()
        .incr(redisKey)
        .pexpire(redisKey, windowMs, 'NX')
        .pttl(redisKey)
        .exec();
      const count = results?.[0]?.[1];
      const ttl = results?.[2]?.[1];
      if (typeof count !== 'number' || typeof ttl !== 'number') {
        throw new Error('unexpected answer to the rate limit transaction');
      }
      return { count, resetAt: this.clock.now() + Math.max(ttl, 0) };
    } catch {
      return this.fallback.hit(key, windowMs);
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
  }
}
