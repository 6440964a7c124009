import { describe, expect, it } from 'vitest';
import { InstancePacer } from './instance-pacer';

const TEN_A_SECOND = { perSecond: 10, concurrency: 1, jitter: 0 };

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
    const pacing = { perSecond: 4, concurrency: 4, jitter: 0 };
    expect(pacer.depart('ins_a', '+14155550100', pacing, 1_000)).toBe(0);
    expect(pacer.depart('ins_a', '+14155550100', pacing, 1_000)).toBe(250);
    expect(pacer.depart('ins_a', '+14155550100', pacing, 1_000)).toBe(500);
  });

  it('spaces each sender number of each instance on its own, and nothing without a rate', () => {
    const pacer = new InstancePacer();
    expect(pacer.depart('ins_a', '+14155550100', TEN_A_SECOND, 0)).toBe(0);
    expect(pacer.depart('ins_a', '+14155550101', TEN_A_SECOND, 0)).toBe(0);
    expect(pacer.depart('ins_b', '+14155550100', TEN_A_SECOND, 0)).toBe(0);
    const unlimited = { perSecond: 0, concurrency: 16, jitter: 0 };
    expect(pacer.depart('ins_c', '+14155550100', unlimited, 0)).toBe(0);
    expect(pacer.depart('ins_c', '+14155550100', unlimited, 0)).toBe(0);
    expect(pacer.reserve('ins_c', '+14155550100', unlimited, 0)).toBe(0);
  });

  it('holds a freed slot for the message that waited for it, not for a newcomer', async () => {
    const pacer = new InstancePacer();
    const first = pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_1');
    expect(first).not.toBeNull();
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_2')).toBeNull();
    const woken = pacer.whenFree('ins_a', 'msg_2');
    first?.release();
    await woken;
    // The next message of the sender comes first to the free slot: it is msg_2's.
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_3')).toBeNull();
    const second = pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_2');
    expect(second).not.toBeNull();
    second?.release();
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_3')).not.toBeNull();
  });

  it('passes a held slot on when its waiter forgoes it, and wakes waiters when concurrency grows', async () => {
    const pacer = new InstancePacer();
    const first = pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_1');
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_2')).toBeNull();
    const second = pacer.whenFree('ins_a', 'msg_2');
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_3')).toBeNull();
    const third = pacer.whenFree('ins_a', 'msg_3');
    first?.release();
    await second;
    pacer.forgo('msg_2');
    await third;
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_2')).toBeNull();
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_3')).not.toBeNull();

    // Concurrency 1 → 2 while msg_4 waits: the added slot goes to it.
    expect(pacer.tryAcquire('ins_a', TEN_A_SECOND, 'msg_4')).toBeNull();
    const fourth = pacer.whenFree('ins_a', 'msg_4');
    const wider = { ...TEN_A_SECOND, concurrency: 2 };
    expect(pacer.tryAcquire('ins_a', wider, 'msg_5')).toBeNull();
    await fourth;
    expect(pacer.tryAcquire('ins_a', wider, 'msg_4')).not.toBeNull();
  });
});
