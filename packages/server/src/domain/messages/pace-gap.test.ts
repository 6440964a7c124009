import { describe, expect, it } from 'vitest';
import { InstancePacer } from './instance-pacer';
import { departureGapMs, paceGapMs, type RandomSource } from './pace-gap';
import { SharedPacer } from './shared-pacer';

/** A seeded source (mulberry32): the same draws on every run, spread like `Math.random`'s. */
function seeded(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONE_A_SECOND = { perSecond: 1, concurrency: 1, jitter: 0.5 };
const SENDS = 1_000;

/** The gaps between a burst's reserved instants, all reserved at once at `now` 0 (an injected clock). */
function burstGaps(pacer: InstancePacer): number[] {
  const waits = Array.from({ length: SENDS }, () =>
    pacer.reserve('ins_a', '+14155550100', ONE_A_SECOND, 0),
  ) as number[];
  return waits.slice(1).map((wait, index) => wait - (waits[index] as number));
}

describe('jittered pacing', () => {
  it('draws each gap in [1 - jitter, 1 + jitter] × the interval, no two alike, holding the rate', () => {
    const gaps = burstGaps(new InstancePacer(seeded(56)));
    expect(new Set(gaps).size).toBe(gaps.length);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1_500);
    // Spread over the whole range, not bunched at the interval.
    expect(Math.min(...gaps)).toBeLessThan(550);
    expect(Math.max(...gaps)).toBeGreaterThan(1_450);
    // The rate holds: 999 gaps average one second within 2 % (the draws' standard error is ~0.9 %).
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    expect(mean).toBeGreaterThan(980);
    expect(mean).toBeLessThan(1_020);
  });

  it('keeps a fixed interval at jitter 0, and the departure floor at the shortest gap allowed', () => {
    const pacer = new InstancePacer(seeded(1));
    const fixed = { ...ONE_A_SECOND, jitter: 0 };
    const waits = [0, 1, 2].map(() => pacer.reserve('ins_a', '+14155550100', fixed, 0));
    expect(waits).toEqual([0, 1_000, 2_000]);
    expect(departureGapMs(ONE_A_SECOND)).toBe(500);
    expect(departureGapMs(fixed)).toBe(1_000);
    expect(paceGapMs({ perSecond: 0, jitter: 0.5 }, seeded(1))).toBe(0);
    // A departure half an interval after the previous one is on time at jitter 0.5.
    expect(pacer.depart('ins_a', '+14155550100', ONE_A_SECOND, 0)).toBe(0);
    expect(pacer.depart('ins_a', '+14155550100', ONE_A_SECOND, 100)).toBe(400);
  });

  it('writes jittered gaps to the shared book across processes, and the floor to departures', async () => {
    const taken: Array<{ book: string; gap: number }> = [];
    const book = {
      takeSlot: async (name: 'start' | 'departure', _i: string, _s: string, gap: number) => {
        taken.push({ book: name, gap });
        return { waitMs: 0, atMs: 0 };
      },
    };
    const processes = [new SharedPacer([book], seeded(7)), new SharedPacer([book], seeded(8))];
    for (let index = 0; index < 200; index += 1) {
      await processes[index % 2]?.reserve('ins_a', '+14155550100', ONE_A_SECOND, 0);
    }
    await processes[0]?.depart('ins_a', '+14155550100', ONE_A_SECOND, 0);
    const starts = taken.filter((slot) => slot.book === 'start').map((slot) => slot.gap);
    expect(new Set(starts).size).toBe(200);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...starts)).toBeLessThanOrEqual(1_500);
    const mean = starts.reduce((sum, gap) => sum + gap, 0) / starts.length;
    expect(Math.abs(mean - 1_000)).toBeLessThan(60);
    expect(taken.filter((slot) => slot.book === 'departure')).toEqual([
      { book: 'departure', gap: 500 },
    ]);
  });
});
