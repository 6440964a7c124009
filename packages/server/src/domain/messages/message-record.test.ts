import { describe, expect, it } from 'vitest';
import { outboundMessage } from '../../../test/store/message-fixture';
import { patchOf } from './message-record';

const T0 = new Date('2026-02-01T08:00:00.000Z');

describe('patchOf', () => {
  const stored = outboundMessage('m1', T0, { status: 'pending', externalId: 'ext-1' });

  it('without the stored message, writes every field that changes over a life', () => {
    const patch = patchOf({ ...stored, status: 'sent' });
    expect(Object.keys(patch).sort()).toEqual(
      [
        'channel',
        'correlationId',
        'errorCode',
        'errorMessage',
        'externalId',
        'fallbackTriggered',
        'retryCount',
        'status',
        'text',
        'timeline',
        'updatedAt',
      ].sort(),
    );
  });

  it('with the stored message, writes only what differs from it, and always updatedAt', () => {
    const at = new Date(T0.getTime() + 1_000);
    const sent = {
      ...stored,
      status: 'sent' as const,
      timeline: [...stored.timeline, { status: 'sent' as const, at: at.getTime(), channel: null }],
      updatedAt: at,
    };
    expect(patchOf(sent, stored)).toEqual({
      status: 'sent',
      timeline: sent.timeline,
      updatedAt: at,
    });
    // Nothing but the time changed: the patch still sets it (a patch is never empty).
    expect(patchOf({ ...stored, updatedAt: at }, stored)).toEqual({ updatedAt: at });
  });

  it('writes a field set back to null', () => {
    const retried = { ...stored, externalId: null, retryCount: stored.retryCount + 1 };
    expect(patchOf(retried, stored)).toEqual({
      externalId: null,
      retryCount: stored.retryCount + 1,
      updatedAt: stored.updatedAt,
    });
  });
});
