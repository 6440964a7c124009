import type { MessageStatus } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import type { MessageDelivery } from '../domain/messages/message-delivery';
import type { Store } from '../store/store';
import { MessageDispatcher } from './message-dispatcher';

const HOUR = 60 * 60 * 1000;
const NOW = Date.parse('2026-11-21T12:00:00Z');

interface FakeMessage {
  id: string;
  status: MessageStatus;
  updatedAt: number;
}

/**
 * A store of messages whose recovery queries behave like SQLite's (ordered, limited), and a
 * delivery that records what recovery asks of it. A resumed `pending` message stays `pending`
 * (its provider has not answered yet); a reconciled message gets a new `updatedAt`, which moves
 * it to the end of the list.
 */
function fixture(messages: FakeMessage[]) {
  const listCalls: Array<{ statuses: readonly MessageStatus[]; limit: number; since?: Date }> = [];
  const resumed: string[] = [];
  const reconciled: string[] = [];
  const delivered: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const clock = new ManualClock(NOW);
  const store = {
    messages: {
      idsInStatus: async (statuses: readonly MessageStatus[], limit: number) => {
        listCalls.push({ statuses, limit });
        return messages
          .filter((message) => statuses.includes(message.status))
          .slice(0, limit)
          .map((message) => message.id);
      },
      unsettledSince: async (statuses: readonly MessageStatus[], since: Date, limit: number) => {
        listCalls.push({ statuses, limit, since });
        return messages
          .filter((m) => statuses.includes(m.status) && m.updatedAt > since.getTime())
          .sort((a, b) => a.updatedAt - b.updatedAt || a.id.localeCompare(b.id))
          .slice(0, limit)
          .map((message) => message.id);
      },
    },
  } as unknown as Store;
  const track = async (ids: string[], id: string) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    ids.push(id);
    inFlight -= 1;
  };
  const delivery = {
    deliverQueued: (id: string) => track(delivered, id),
    resumePending: (id: string) => track(resumed, id),
    reconcile: async (id: string) => {
      await track(reconciled, id);
      const message = messages.find((m) => m.id === id);
      if (message) message.updatedAt = clock.now();
    },
  } as unknown as MessageDelivery;
  return {
    store,
    delivery,
    clock,
    listCalls,
    resumed,
    reconciled,
    delivered,
    maxInFlight: () => maxInFlight,
  };
}

async function recover(
  setup: ReturnType<typeof fixture>,
  options: Partial<ConstructorParameters<typeof MessageDispatcher>[0]> = {},
): Promise<void> {
  const dispatcher = new MessageDispatcher({
    store: setup.store,
    delivery: setup.delivery,
    clock: setup.clock,
    concurrency: 4,
    ...options,
  });
  dispatcher.start({ error: (details) => expect.fail(JSON.stringify(details)) });
  await dispatcher.recovered();
  await dispatcher.stop();
}

function many(count: number, status: MessageStatus, prefix: string, agoMs: number): FakeMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${String(index).padStart(4, '0')}`,
    status,
    updatedAt: NOW - agoMs + index,
  }));
}

describe('MessageDispatcher start-up recovery', () => {
  it('resumes every pending message once, a page at a time, though they stay pending', async () => {
    const setup = fixture(many(450, 'pending', 'p', HOUR));
    await recover(setup);
    expect(setup.resumed).toHaveLength(450);
    expect(new Set(setup.resumed).size).toBe(450);
    const pendingLimits = setup.listCalls
      .filter((call) => call.statuses.includes('pending'))
      .map((call) => call.limit);
    expect(pendingLimits).toEqual([200, 400, 600]);
    expect(setup.maxInFlight()).toBeLessThanOrEqual(4);
  });

  it('reconciles sent messages of the last 24 h and delivered ones of the last 15 min, once each', async () => {
    const setup = fixture([
      ...many(250, 'sent', 's-recent', 23 * HOUR),
      ...many(3, 'sent', 's-old', 25 * HOUR),
      ...many(230, 'delivered', 'd-recent', 10 * 60 * 1000),
      ...many(5, 'delivered', 'd-old', HOUR),
      ...many(5, 'read', 'r-recent', 60 * 1000),
    ]);
    await recover(setup);
    expect(setup.reconciled).toHaveLength(480);
    expect(new Set(setup.reconciled).size).toBe(480);
    expect(setup.reconciled.filter((id) => id.startsWith('s-recent'))).toHaveLength(250);
    expect(setup.reconciled.filter((id) => id.startsWith('d-recent'))).toHaveLength(230);
    const windows = setup.listCalls
      .filter((call) => call.since !== undefined)
      .map((call) => [call.statuses.join(), NOW - (call.since?.getTime() ?? 0)]);
    expect(new Set(windows.map((window) => window.join()))).toEqual(
      new Set([`sent,${24 * HOUR}`, `delivered,${15 * 60 * 1000}`]),
    );
  });

  it('takes the reconcile windows from its options', async () => {
    const setup = fixture([
      ...many(2, 'sent', 's', 2 * HOUR),
      ...many(2, 'delivered', 'd', 2 * HOUR),
    ]);
    await recover(setup, { reconcileSentWithinMs: HOUR, reconcileDeliveredWithinMs: 3 * HOUR });
    expect(setup.reconciled.sort()).toEqual(['d0000', 'd0001']);
  });
});

describe('MessageDispatcher queued messages', () => {
  it('starts a backlog a few messages per turn of the event loop, within its concurrency', async () => {
    const setup = fixture([]);
    const dispatcher = new MessageDispatcher({
      store: setup.store,
      delivery: setup.delivery,
      clock: setup.clock,
      concurrency: 16,
    });
    dispatcher.start({ error: (details) => expect.fail(JSON.stringify(details)) });
    await dispatcher.recovered();
    const ids = Array.from({ length: 40 }, (_, index) => `m${index}`);
    for (const id of ids) dispatcher.enqueue(id);
    // Nothing starts in the turn that announced them: the turn's other I/O goes first.
    await Promise.resolve();
    expect(setup.delivered).toEqual([]);
    const finishedBy = async () => {
      while (setup.delivered.length < ids.length) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await finishedBy();
    expect([...setup.delivered].sort()).toEqual([...ids].sort());
    // Each fake delivery takes one turn: at most 4 start per turn, so at most 8 overlap.
    expect(setup.maxInFlight()).toBeLessThanOrEqual(8);
    await dispatcher.stop();
  });
});

describe('MessageDispatcher deferred messages', () => {
  it('takes a message up again when the wait it was told of is over before its turn has ended', async () => {
    const setup = fixture([]);
    const turns: Array<[string, boolean]> = [];
    const delivery = {
      // The slot it waits for is released while the turn that found it busy is still returning:
      // the wait has settled before the dispatcher hears of it.
      deliverQueued: async (id: string, reserved: boolean) => {
        turns.push([id, reserved]);
        return turns.length === 1 ? { resume: Promise.resolve(), reserved: true } : undefined;
      },
    } as unknown as MessageDelivery;
    const dispatcher = new MessageDispatcher({
      store: setup.store,
      delivery,
      clock: setup.clock,
      sweepIntervalMs: 60_000,
    });
    dispatcher.start({ error: (details) => expect.fail(JSON.stringify(details)) });
    await dispatcher.recovered();
    dispatcher.enqueue('m1');
    for (let turn = 0; turn < 20 && turns.length < 2; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Taken up again at once, keeping its reservation, not left for the sweep a minute later.
    expect(turns).toEqual([
      ['m1', false],
      ['m1', true],
    ]);
    await dispatcher.stop();
  });
});
