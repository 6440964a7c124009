import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_SCHEDULE,
  formatRetrySchedule,
  InvalidRetryScheduleError,
  nextAttemptDelay,
  parseRetryAfter,
  parseRetrySchedule,
  spreadOverdue,
} from './retry-schedule';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const HOUR = 3_600_000;

describe('DEFAULT_RETRY_SCHEDULE', () => {
  it('is the spec schedule: 30s, 5m, 30m, 2h, 8h, 24h, 24h', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([
      30_000,
      300_000,
      1_800_000,
      2 * HOUR,
      8 * HOUR,
      24 * HOUR,
      24 * HOUR,
    ]);
    expect(formatRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toBe('30s,5m,30m,2h,8h,1d,1d');
    expect(Object.isFrozen(DEFAULT_RETRY_SCHEDULE)).toBe(true);
  });
});

describe('parseRetrySchedule', () => {
  it.each([
    ['100ms,200ms,1s', [100, 200, 1000]],
    ['30s,5m,30m,2h,8h,24h,24h', [...DEFAULT_RETRY_SCHEDULE]],
    [' 1s , 2s ', [1000, 2000]],
    ['1d', [86_400_000]],
    ['7d', [7 * 24 * HOUR]],
    ['1.5h,0.5s', [1.5 * HOUR, 500]],
  ])('parses %j', (text, expected) => {
    expect(parseRetrySchedule(text)).toEqual(expected);
  });

  it('round-trips through formatRetrySchedule', () => {
    const schedule = parseRetrySchedule('1500ms,90s,2h,1d');
    expect(parseRetrySchedule(formatRetrySchedule(schedule))).toEqual(schedule);
  });

  it.each([
    ['', 'step 1 ("")'],
    ['30', 'step 1 ("30")'],
    ['1s,,2s', 'step 2 ("")'],
    ['1s,2x', 'step 2 ("2x")'],
    ['.5s', 'step 1 (".5s")'],
    ['1 s', 'step 1 ("1 s")'],
    ['0.1ms', 'more than 0'],
    ['-1s', 'step 1 ("-1s")'],
    ['0s', 'more than 0'],
    ['8d', 'at most 7d'],
    ['1S', 'step 1 ("1S")'],
    [Array.from({ length: 21 }, () => '1s').join(','), 'at most 20'],
  ])('rejects %j, naming the problem', (text, message) => {
    expect(() => parseRetrySchedule(text)).toThrow(InvalidRetryScheduleError);
    expect(() => parseRetrySchedule(text)).toThrow(message);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    [' 5 ', 5000],
    ['0', null],
    ['', null],
    ['soon', null],
    ['1.5', null],
    ['-3', null],
    [null, null],
    [undefined, null],
    ['Sun, 01 Mar 2026 12:10:00 GMT', 600_000],
    ['Sun, 01 Mar 2026 11:59:00 GMT', null],
  ])('reads %j as %j ms', (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });
});

describe('nextAttemptDelay', () => {
  it('follows the schedule and ends after the seventh retry', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((attemptNumber) =>
      nextAttemptDelay({ attemptNumber, now: NOW }),
    );
    expect(delays).toEqual([...DEFAULT_RETRY_SCHEDULE, null]);
  });

  it('waits longer when Retry-After asks for more than the schedule', () => {
    expect(nextAttemptDelay({ attemptNumber: 1, retryAfter: '120', now: NOW })).toBe(120_000);
    expect(
      nextAttemptDelay({ attemptNumber: 1, retryAfter: 'Sun, 01 Mar 2026 13:00:00 GMT', now: NOW }),
    ).toBe(HOUR);
  });

  it('never waits less than the schedule', () => {
    expect(nextAttemptDelay({ attemptNumber: 2, retryAfter: '1', now: NOW })).toBe(300_000);
  });

  it('caps Retry-After at the longest step, or at maxDelayMs', () => {
    expect(
      nextAttemptDelay({ attemptNumber: 1, retryAfter: String(7 * 24 * 3600), now: NOW }),
    ).toBe(24 * HOUR);
    expect(
      nextAttemptDelay({ attemptNumber: 1, retryAfter: '3600', now: NOW, maxDelayMs: 60_000 }),
    ).toBe(60_000);
  });

  it('scales with a test schedule, Retry-After included', () => {
    const schedule = parseRetrySchedule('100ms,200ms,1s');
    expect(nextAttemptDelay({ attemptNumber: 1, now: NOW, schedule })).toBe(100);
    expect(nextAttemptDelay({ attemptNumber: 1, retryAfter: '60', now: NOW, schedule })).toBe(1000);
    expect(nextAttemptDelay({ attemptNumber: 4, retryAfter: '60', now: NOW, schedule })).toBeNull();
  });

  it('refuses a nonsensical attempt number', () => {
    expect(() => nextAttemptDelay({ attemptNumber: 0, now: NOW })).toThrow(RangeError);
    expect(() => nextAttemptDelay({ attemptNumber: 1.5, now: NOW })).toThrow(RangeError);
  });
});

describe('spreadOverdue', () => {
  it('releases a large backlog evenly within the window, oldest first', () => {
    const items = Array.from({ length: 1000 }, (_, index) => ({
      id: `d${String(index).padStart(4, '0')}`,
      dueAt: NOW - HOUR + ((index * 7919) % 1000) * 1000,
    }));
    const spread = spreadOverdue(items, { now: NOW, windowMs: 300_000 });

    expect(spread).toHaveLength(1000);
    const times = spread.map((entry) => entry.runAt);
    expect(times[0]).toBe(NOW);
    expect(Math.max(...times)).toBeLessThan(NOW + 300_000);
    // Evenly spaced: 300 ms apart, never two in the same instant.
    expect(new Set(times).size).toBe(1000);
    expect(times[1]).toBe(NOW + 300);
    const dueOrder = spread.map((entry) => entry.item.dueAt);
    expect(dueOrder).toEqual([...dueOrder].sort((a, b) => a - b));
  });

  it('leaves work a short outage made overdue to go out at once, spreading only older work', () => {
    const recent = Array.from({ length: 500 }, (_, index) => ({
      id: `r${String(index).padStart(3, '0')}`,
      dueAt: NOW - 2000 - index,
    }));
    const old = [{ id: 'old', dueAt: NOW - HOUR }];
    const spread = spreadOverdue([...recent, ...old], {
      now: NOW,
      windowMs: 300_000,
      recentMs: 60_000,
    });
    const runAt = new Map(spread.map((entry) => [entry.item.id, entry.runAt]));
    for (const item of recent) expect(runAt.get(item.id)).toBe(item.dueAt);
    expect(runAt.get('old')).toBe(NOW);
  });

  it('does not stretch a small backlog over the whole window', () => {
    const spread = spreadOverdue(
      [
        { id: 'b', dueAt: NOW - 5000 },
        { id: 'a', dueAt: NOW - 5000 },
        { id: 'c', dueAt: NOW - 9000 },
      ],
      { now: NOW, windowMs: 300_000 },
    );
    expect(spread.map((entry) => [entry.item.id, entry.runAt - NOW])).toEqual([
      ['c', 0],
      ['a', 1000],
      ['b', 2000],
    ]);
  });

  it('leaves work that is not due yet alone, and is deterministic', () => {
    const items = [
      { id: 'future', dueAt: NOW + 60_000 },
      { id: 'late', dueAt: NOW - 1 },
      { id: 'now', dueAt: NOW },
    ];
    const first = spreadOverdue(items, { now: NOW, windowMs: 10_000, maxGapMs: 250 });
    expect(first.map((entry) => [entry.item.id, entry.runAt - NOW])).toEqual([
      ['late', 0],
      ['now', 250],
      ['future', 60_000],
    ]);
    expect(
      spreadOverdue([...items].reverse(), { now: NOW, windowMs: 10_000, maxGapMs: 250 }),
    ).toEqual(first);
    expect(spreadOverdue([], { now: NOW, windowMs: 10_000 })).toEqual([]);
  });
});
