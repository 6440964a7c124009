import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock';
import type { MessageRecord, StoredHold } from '../../store/message-repository';
import { PolicyHolds } from './policy-holds';

const NOW = Date.parse('2026-01-15T12:00:00Z');
const HOLD: StoredHold = {
  code: 'daily_cap',
  message: 'The day cap is reached',
  until: Date.parse('2026-01-16T00:00:00Z'),
};

/** A queued message from `from`, already held with {@link HOLD} (so no step is written). */
function heldMessage(id: string, from = '+14155550100'): MessageRecord {
  const message: Partial<MessageRecord> = {
    id,
    from,
    hold: HOLD,
    createdAt: new Date(NOW),
    timeline: [{ status: 'queued', at: NOW, channel: null }],
  };
  return message as MessageRecord;
}

/** Holds whose allowance holds every message, looking again every `recheckMs`. */
function holds(recheckMs: number): PolicyHolds {
  return new PolicyHolds(
    {
      allowance: { admit: async () => HOLD },
      clock: new ManualClock(NOW),
      holdWindowMs: 72 * 3_600_000,
      recheckMs,
    },
    { fail: async () => undefined, recordSteps: async () => undefined },
  );
}

const STOP = [{ channel: 'imessage' as const, instanceId: 'inst_1' }];

describe('messages held on one number look again together, oldest first', () => {
  it('settles the held messages of a number in the order of their ids, whatever order they were held in', async () => {
    const policy = holds(30);
    const settled: string[] = [];
    const waits = [];
    for (const id of ['msg_03', 'msg_01', 'msg_04', 'msg_02']) {
      const verdict = await policy.verdict(heldMessage(id), STOP);
      if (verdict.kind !== 'wait') throw new Error('expected a wait');
      waits.push(verdict.resume.then(() => settled.push(id)));
    }
    await Promise.all(waits);
    expect(settled).toEqual(['msg_01', 'msg_02', 'msg_03', 'msg_04']);
  });

  it('keeps the numbers apart: another number looks again on its own', async () => {
    const policy = holds(30);
    const first = await policy.verdict(heldMessage('msg_09'), STOP);
    // Held later (after the first number's look is due) on another number: not in its group.
    const other = await policy.verdict(heldMessage('msg_01', '+14155550101'), STOP);
    if (first.kind !== 'wait' || other.kind !== 'wait') throw new Error('expected waits');
    const settled: string[] = [];
    await Promise.all([
      first.resume.then(() => settled.push('first number')),
      other.resume.then(() => settled.push('other number')),
    ]);
    expect(settled).toEqual(['first number', 'other number']);
  });
});
