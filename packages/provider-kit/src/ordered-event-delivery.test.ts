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

  it('with orderKey, keeps each key in order while other keys go ahead', async () => {
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const delivery = new OrderedEventDelivery(
      async (event) => {
        if (event.upstreamEventId === 'a1') await held;
        seen.push(event.upstreamEventId ?? '');
      },
      quiet,
      { orderKey: (event) => (event.upstreamEventId ?? '').slice(0, 1) },
    );
    const a = Promise.all(['a1', 'a2'].map((id) => delivery.deliver(typing(id))));
    const idle = delivery.idle();
    await Promise.all(['b1', 'b2'].map((id) => delivery.deliver(typing(id))));
    // Key b went ahead of a's held first event; a's second waits behind its first.
    expect(seen).toEqual(['b1', 'b2']);
    release();
    await a;
    await idle;
    expect(seen).toEqual(['b1', 'b2', 'a1', 'a2']);
  });

  it('idle waits for every key', async () => {
    const seen: string[] = [];
    const delivery = new OrderedEventDelivery(
      async (event) => {
        await new Promise((resolve) => setTimeout(resolve, event.upstreamEventId === 'x' ? 10 : 1));
        seen.push(event.upstreamEventId ?? '');
      },
      quiet,
      { orderKey: (event) => event.upstreamEventId ?? '' },
    );
    delivery.fire(typing('x'));
    delivery.fire(typing('y'));
    await delivery.idle();
    expect(seen).toEqual(['y', 'x']);
  });
});
