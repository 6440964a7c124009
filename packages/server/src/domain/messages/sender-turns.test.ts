import { describe, expect, it } from 'vitest';
import { SenderTurns } from './sender-turns';

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('SenderTurns', () => {
  it('lets a later message of a sender decide only after the earlier one, whichever read answered first', async () => {
    const turns = new SenderTurns();
    const first = turns.take();
    const second = turns.take();
    // The second message's read answers first.
    second.name('line-a');
    const secondReady = second.ready();
    expect(await settled(secondReady)).toBe(false);
    first.name('line-a');
    await first.ready();
    expect(await settled(secondReady)).toBe(false);
    first.done();
    expect(await settled(secondReady)).toBe(true);
    second.done();
    expect(turns.open).toBe(0);
  });

  it('never holds a sender for another sender’s decision, only for reads still unanswered', async () => {
    const turns = new SenderTurns();
    const slow = turns.take();
    const other = turns.take();
    other.name('line-b');
    const otherReady = other.ready();
    // An earlier read still unanswered could be the same sender's.
    expect(await settled(otherReady)).toBe(false);
    slow.name('line-a');
    expect(await settled(otherReady)).toBe(true);
    other.done();
    slow.done();
  });

  it('frees the turns behind one that gives up, named or not, and ignores a second done', async () => {
    const turns = new SenderTurns();
    const gone = turns.take();
    const behind = turns.take();
    behind.name('line-a');
    const ready = behind.ready();
    gone.done();
    gone.done();
    gone.name('line-a');
    expect(await settled(ready)).toBe(true);
    behind.done();
    expect(turns.open).toBe(0);
  });
});
