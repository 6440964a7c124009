/**
 * The source of the current time. Everything that reads the time takes a clock, so tests can
 * move time forward instead of sleeping.
 */
export interface Clock {
  /** The current time in milliseconds since the Unix epoch. */
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that only moves when told to: for tests of windows, schedules and expiries.
 * @example const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z')); clock.advance(60_000);
 */
export class ManualClock implements Clock {
  #now: number;

  /** Starts the clock at `start` (epoch milliseconds; defaults to the real current time). */
  constructor(start: number = Date.now()) {
    this.#now = start;
  }

  /** The current manual time. */
  now(): number {
    return this.#now;
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#now += ms;
  }

  /** Sets the clock to `epochMs`. */
  set(epochMs: number): void {
    this.#now = epochMs;
  }
}
