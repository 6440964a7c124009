import { describe, expect, it } from 'vitest';
import type { PaceSlot } from '../../store/sender-pace-book';
import { SharedPacer } from './shared-pacer';

const PACING = { perSecond: 1, concurrency: 1, jitter: 0 };

/** A pacer over one book that answers `slot`, its wall clock at `now`. */
function pacerAnswering(slot: PaceSlot, now: number): SharedPacer {
  return new SharedPacer([{ takeSlot: async () => slot }], Math.random, () => now);
}

describe('SharedPacer', () => {
  it('waits until the slot’s instant, not the book’s wait counted from a late answer', async () => {
    // The book took the slot 500 ms ahead at 1,000; its answer arrived 300 ms later.
    const pacer = pacerAnswering({ waitMs: 500, atMs: 1_500 }, 1_300);
    expect(await pacer.reserve('ins_a', '+14155550100', PACING, 0)).toBe(200);
    expect(await pacer.depart('ins_a', '+14155550100', PACING, 0)).toBe(200);
  });

  it('never waits longer than the book’s own wait (a wall clock behind the book’s)', async () => {
    const pacer = pacerAnswering({ waitMs: 500, atMs: 1_500 }, 0);
    expect(await pacer.reserve('ins_a', '+14155550100', PACING, 0)).toBe(500);
    const past = pacerAnswering({ waitMs: 0, atMs: 1_000 }, 1_200);
    expect(await past.reserve('ins_a', '+14155550100', PACING, 0)).toBe(0);
  });

  it('paces in the process when no book answers', async () => {
    const pacer = new SharedPacer([
      {
        takeSlot: async () => {
          throw new Error('away');
        },
      },
    ]);
    expect(await pacer.reserve('ins_a', '+14155550100', PACING, 0)).toBe(0);
    expect(await pacer.reserve('ins_a', '+14155550100', PACING, 0)).toBe(1_000);
  });
});
