/** Delays in milliseconds before retry 1, 2, …; its length is the number of retries. */
export type RetrySchedule = readonly number[];

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The spec's schedule: retries 30 s, 5 min, 30 min, 2 h, 8 h, 24 h and 24 h after the previous attempt. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = Object.freeze([
  30 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  8 * HOUR,
  DAY,
  DAY,
]);

const UNIT_MS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/** Longest single step `parseRetrySchedule` accepts; longer is almost certainly a typo. */
const MAX_RETRY_STEP_MS = 7 * DAY;

/** Most retries `parseRetrySchedule` accepts. */
const MAX_RETRY_STEPS = 20;

/** Thrown by {@link parseRetrySchedule} for a malformed schedule; the message names the bad item. */
export class InvalidRetryScheduleError extends Error {
  override readonly name = 'InvalidRetryScheduleError';
}

/**
 * Parses a retry schedule such as `WEBHOOK_RETRY_SCHEDULE`: comma-separated durations, each a
 * positive number followed by `ms`, `s`, `m`, `h` or `d` (`30s`, `1.5h`), whitespace around items
 * ignored; 1 to 20 items, each more than 0 and at most 7 days. A bare number is refused: in a
 * variable without a unit in its name, `30` could mean seconds as easily as milliseconds.
 *
 * @throws {InvalidRetryScheduleError} when the text does not follow that syntax.
 * @example parseRetrySchedule('100ms,200ms,1s') // [100, 200, 1000]
 */
export function parseRetrySchedule(text: string): RetrySchedule {
  const items = text.split(',').map((item) => item.trim());
  if (items.length > MAX_RETRY_STEPS) {
    throw new InvalidRetryScheduleError(
      `retry schedule has ${items.length} steps; at most ${MAX_RETRY_STEPS}`,
    );
  }
  const schedule = items.map((item, index) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(item);
    const unit = match?.[2] === undefined ? undefined : UNIT_MS[match[2]];
    if (match === null || unit === undefined) {
      throw new InvalidRetryScheduleError(
        `retry schedule step ${index + 1} ("${item}") must be a number followed by ms, s, m, h or d, e.g. "30s"`,
      );
    }
    const ms = Math.round(Number(match[1]) * unit);
    if (ms <= 0 || ms > MAX_RETRY_STEP_MS) {
      throw new InvalidRetryScheduleError(
        `retry schedule step ${index + 1} ("${item}") must be more than 0 and at most 7d`,
      );
    }
    return ms;
  });
  return Object.freeze(schedule);
}

/** Formats a schedule in the syntax {@link parseRetrySchedule} reads, using the largest exact unit. */
export function formatRetrySchedule(schedule: RetrySchedule): string {
  const units: Array<[string, number]> = [
    ['d', DAY],
    ['h', HOUR],
    ['m', MINUTE],
    ['s', SECOND],
  ];
  return schedule
    .map((ms) => {
      const unit = units.find(([, size]) => ms % size === 0);
      return unit === undefined ? `${ms}ms` : `${ms / unit[1]}${unit[0]}`;
    })
    .join(',');
}

/**
 * Reads a `Retry-After` header (delay-seconds or an HTTP date) as milliseconds to wait from `now`;
 * null when absent, malformed, or not in the future.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now: Date | number,
): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) {
    const ms = Number(value) * SECOND;
    return ms > 0 && Number.isFinite(ms) ? ms : null;
  }
  // Only something that looks like a date (it names a day or month) goes to Date.parse, which
  // would otherwise read "1.5" as a date in 2001.
  if (!/[a-z]/i.test(value)) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  const ms = at - (typeof now === 'number' ? now : now.getTime());
  return ms > 0 ? ms : null;
}

/** Input of {@link nextAttemptDelay}. */
export interface NextAttemptInput {
  /** Number of attempts made so far in this chain, including the one that just failed (1 = the first delivery). */
  attemptNumber: number;
  /** The failed attempt's `Retry-After` response header, if any. */
  retryAfter?: string | null;
  /** Current time, for HTTP-date `Retry-After` values. */
  now: Date | number;
  /** Schedule in force. Default {@link DEFAULT_RETRY_SCHEDULE}. */
  schedule?: RetrySchedule;
  /** Longest wait a `Retry-After` can ask for. Default: the schedule's longest step (24 h by default). */
  maxDelayMs?: number;
}

/**
 * Milliseconds to wait before the next attempt of a retryable failure, or null when the chain is
 * exhausted. A `Retry-After` lengthens the wait (the longer of it and the schedule wins, up to
 * `maxDelayMs`) but never shortens it, and never adds attempts.
 *
 * @example nextAttemptDelay({ attemptNumber: 1, now: Date.now() }) // 30000
 */
export function nextAttemptDelay(input: NextAttemptInput): number | null {
  const schedule = input.schedule ?? DEFAULT_RETRY_SCHEDULE;
  if (!Number.isInteger(input.attemptNumber) || input.attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be a whole number >= 1, got ${input.attemptNumber}`);
  }
  const scheduled = schedule[input.attemptNumber - 1];
  if (scheduled === undefined) return null;
  const requested = parseRetryAfter(input.retryAfter, input.now);
  if (requested === null) return scheduled;
  const cap = input.maxDelayMs ?? Math.max(...schedule);
  return Math.max(scheduled, Math.min(requested, cap));
}

/** A unit of pending work that was due at `dueAt` (epoch milliseconds). */
export interface DueItem {
  id: string;
  dueAt: number;
}

/** Input of {@link spreadOverdue}. */
export interface SpreadOverdueOptions {
  /** Current time, epoch milliseconds. */
  now: number;
  /** The whole overdue backlog is released within this window. */
  windowMs: number;
  /** Largest gap between two releases, so a small backlog is not stretched over the whole window. Default 1000. */
  maxGapMs?: number;
  /**
   * Items overdue by less than this (a short outage, a crash and restart) are not spread: they
   * go out at once, paced by each receiver's lanes. Default 0 (spread everything overdue).
   */
  recentMs?: number;
}

/** An item with the time it should now run. */
export interface SpreadItem<T extends DueItem> {
  item: T;
  runAt: number;
}

/**
 * Reschedules overdue work (after a long outage) so it is released gradually, oldest first,
 * rather than in one burst: items overdue by `recentMs` or more are evenly spaced from `now`, by
 * `min(maxGapMs, windowMs / n)`, ordered by due time then id; items not yet due, or overdue by
 * less than `recentMs`, keep their time. Deterministic, so a second restart computes the same order.
 */
export function spreadOverdue<T extends DueItem>(
  items: readonly T[],
  options: SpreadOverdueOptions,
): Array<SpreadItem<T>> {
  const recentMs = options.recentMs ?? 0;
  const spreads = (item: T) => item.dueAt <= options.now && options.now - item.dueAt >= recentMs;
  const overdue = items
    .filter(spreads)
    .sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const gap =
    overdue.length === 0
      ? 0
      : Math.min(options.maxGapMs ?? SECOND, options.windowMs / overdue.length);
  const spread = overdue.map((item, index) => ({
    item,
    runAt: options.now + Math.floor(index * gap),
  }));
  const future = items
    .filter((item) => !spreads(item))
    .map((item) => ({ item, runAt: item.dueAt }));
  return [...spread, ...future];
}
