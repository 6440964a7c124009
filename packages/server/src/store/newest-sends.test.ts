import { describe, expect, it } from 'vitest';
import { newestSends, type RankedSend } from './newest-sends';

const send = (id: string, at: number, status: RankedSend['status']): RankedSend => ({
  id,
  updatedAt: new Date(at),
  from: '+14155550100',
  channel: 'sms',
  status,
  sentAt: at - 500,
  deliveredAt: status === 'sent' ? null : at,
});

describe('newestSends', () => {
  it('merges the lists of each status newest first, ties by id, and keeps the limit', () => {
    const sent = [send('m5', 5000, 'sent'), send('m2', 2000, 'sent')];
    const delivered = [send('m4', 4000, 'delivered'), send('m3', 4000, 'delivered')];
    const read = [send('m1', 1000, 'read')];
    const merged = newestSends([sent, delivered, read], 4);
    expect(merged.map((s) => s.status)).toEqual(['sent', 'delivered', 'delivered', 'sent']);
    expect(merged).toHaveLength(4);
    expect(merged[0]).toEqual({
      from: '+14155550100',
      channel: 'sms',
      status: 'sent',
      sentAt: 4500,
      deliveredAt: null,
    });
  });

  it('orders sends changed at the same instant by id, highest first, as the stores do', () => {
    const merged = newestSends(
      [[send('a', 1000, 'sent')], [send('c', 1000, 'delivered')], [send('b', 1000, 'read')]],
      3,
    );
    expect(merged.map((s) => s.status)).toEqual(['delivered', 'read', 'sent']);
  });

  it('answers none for no lists', () => {
    expect(newestSends([], 10)).toEqual([]);
  });
});
