import { describe, expect, it } from 'vitest';
import { InstancePacer } from './instance-pacer';

const TEN_A_SECOND = { perSecond: 10, concurrency: 1 };

describe('InstancePacer', () => {
  it('reserves a burst one interval apart, in arrival order', () => {
    const pacer = new InstancePacer();
    const waits = [0, 1, 2, 3].map(() => pacer.reserve('ins_a', '+14155550100', TEN_A_SECOND, 0));
    expect(waits).toEqual([0, 100, 200, 300]);
  });

  it('keeps sends one interval apart when one of them leaves later than its reserved instant', () => {
    const pacer = new InstancePacer();
    // Reserved at 0 and 100; the first reached its upstream 60 ms late.
    expect(pacer.depart('ins_a', '+14155550100', TEN_A_SECOND, 60)).toBe(0);
    // The second is on time at 100: it waits until 160, one interval after the first.
    expect(pacer.depart('ins_a', '+14155550100', TEN_A_SECOND, 100)).toBe(60);
    // The third, late itself, leaves at once.
    expect(pacer.depart('ins_a', '+14155550100', TEN_A_SECOND, 400)).toBe(0);
  });

  it('spaces two sends that leave at the same moment (several in flight) one interval apart', () => {
    const pacer = new InstancePacer();
    const pacing = { perSecond: 4, concurrency: 4 };
    expect(pacer.depart('ins_a', '+14155550100', pacing, 1_000)).toBe(0);
    expect(pacer.depart('ins_a', '+14155550100', pacing, 1_000)).toBe(250);
    expect(pacer.depart('ins_a', '+14155550100', pacing, 1_000)).toBe(500);
  });

  it('spaces each sender number of each instance on its own, and nothing without a rate', () => {
    const pacer = new InstancePacer();
    expect(pacer.depart('ins_a', '+14155550100', TEN_A_SECOND, 0)).toBe(0);
    expect(pacer.depart('ins_a', '+14155550101', TEN_A_SECOND, 0)).toBe(0);
    expect(pacer.depart('ins_b', '+14155550100', TEN_A_SECOND, 0)).toBe(0);
    const unlimited = { perSecond: 0, concurrency: 16 };
    expect(pacer.depart('ins_c', '+14155550100', unlimited, 0)).toBe(0);
    expect(pacer.depart('ins_c', '+14155550100', unlimited, 0)).toBe(0);
    expect(pacer.reserve('ins_c', '+14155550100', unlimited, 0)).toBe(0);
  });
});
