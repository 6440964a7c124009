import { describe, expect, it } from 'vitest';
import { AcceptedSlots } from './accepted-slots';

describe('AcceptedSlots', () => {
  it('hands a message its slot once, and nothing to a message that took none', async () => {
    const slots = new AcceptedSlots();
    slots.keep('msg_a', Promise.resolve(1_500), 0);
    slots.keep('msg_b', Promise.resolve(undefined), 0);
    expect(await slots.claim('msg_a')).toBe(1_500);
    expect(await slots.claim('msg_a')).toBeUndefined();
    expect(await slots.claim('msg_b')).toBeUndefined();
    expect(await slots.claim('msg_c')).toBeUndefined();
    expect(slots.size).toBe(0);
  });

  it('waits for a slot still being taken', async () => {
    const slots = new AcceptedSlots();
    let answer: (at: number) => void = () => undefined;
    slots.keep('msg_a', new Promise((resolve) => (answer = resolve)), 0);
    const claimed = slots.claim('msg_a');
    answer(2_000);
    expect(await claimed).toBe(2_000);
  });

  it('drops slots no worker claimed five minutes on (a message another process drove)', async () => {
    const slots = new AcceptedSlots();
    slots.keep('msg_a', Promise.resolve(1), 0);
    slots.keep('msg_b', Promise.resolve(2), 60_000);
    slots.keep('msg_c', Promise.resolve(3), 5 * 60_000);
    expect(slots.size).toBe(2);
    expect(await slots.claim('msg_a')).toBeUndefined();
    expect(await slots.claim('msg_b')).toBe(2);
  });
});
