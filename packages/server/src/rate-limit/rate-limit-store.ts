/** The state of one key's current window after a hit. */
export interface RateLimitWindow {
  /** Hits counted in the window, this one included. */
  count: number;
  /** When the window ends, in epoch milliseconds. */
  resetAt: number;
}

/**
 * Counts requests per key in fixed windows: a window opens with the first hit after the previous
 * one ended and lasts `windowMs`. The in-memory store serves one process; a shared store (Redis:
 * `INCR` + `PEXPIRE` on the first hit) serves several behind a load balancer.
 */
export interface RateLimitStore {
  /** Counts one hit for `key` and returns its window. Must be atomic per key. */
  hit(key: string, windowMs: number): Promise<RateLimitWindow>;
  /** Releases resources (timers, connections). */
  close(): Promise<void>;
}
