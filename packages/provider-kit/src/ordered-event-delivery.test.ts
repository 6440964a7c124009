import { describe, expect, it } from 'vitest';
import { OrderedEventDelivery } from './ordered-event-delivery';
import type { ProviderInboundEvent } from './provider-events';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function typing(upstreamEventId?: string): ProviderInboundEvent {
  return {
    kind: 'typing',
    channel: 'imessage',
    occurredAt: new Date(0),
    from: '+14155550111',
    to: '+14155550100',
    status: 'start',
    ...(upstreamEventId === undefined ? {} : { upstreamEventId }),
  };
}

describe('OrderedEventDelivery', () => {
  it('offers events one at a time, in order', async () => {
    const seen: string[] = [];
    let active = 0;
    let most = 0;
    const delivery = new OrderedEventDelivery(async (event) => {
      active += 1;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 2));
      seen.push(event.upstreamEventId ?? '');
      active -= 1;
    }, quiet);
    await Promise.all(['a', 'b', 'c'].map((id) => delivery.deliver(typing(id))));
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
  });

  it('with rememberIds, offers an upstream id once, and again after it was given up', async () => {
    const offered: string[] = [];
    let refuse = true;
    const delivery = new OrderedEventDelivery(
      async (event) => {
        offered.push(event.upstreamEventId ?? 'none');
        if (refuse && event.upstreamEventId === 'x') throw new Error('not now');
      },
      quiet,
      { attempts: 1, rememberIds: 2 },
    );
    await expect(delivery.deliver(typing('x'))).rejects.toThrow('not now');
    refuse = false;
    await delivery.deliver(typing('x'));
    await delivery.deliver(typing('x'));
    expect(delivery.seen('x')).toBe(true);
    await delivery.deliver(typing());
    await delivery.deliver(typing());
    await delivery.deliver(typing('y'));
    await delivery.deliver(typing('z'));
    // Bounded: the oldest id is forgotten once three are remembered.
    expect(delivery.seen('x')).toBe(false);
    expect(offered).toEqual(['x', 'x', 'none', 'none', 'y', 'z']);
  });
});
