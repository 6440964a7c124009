import type { Clock } from '../clock';
import type { RateLimitStore, RateLimitWindow } from './rate-limit-store';

/** {@link RateLimitStore} in process memory; exact, because a hit is a synchronous update. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, RateLimitWindow>();
  #lastSweep: number;

  /** Creates an empty store reading time from `clock`. */
  constructor(private readonly clock: Clock) {
    this.#lastSweep = clock.now();
  }

  async hit(key: string, windowMs: number): Promise<RateLimitWindow> {
    const now = this.clock.now();
    this.#sweep(now, windowMs);
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  async close(): Promise<void> {
    this.#windows.clear();
  }

  /** Forgets ended windows once per window length, so idle keys do not accumulate. */
  #sweep(now: number, windowMs: number): void {
    if (now - this.#lastSweep < windowMs) return;
    this.#lastSweep = now;
    for (const [key, window] of this.#windows) {
      if (window.resetAt <= now) this.#windows.delete(key);
    }
  }
}
