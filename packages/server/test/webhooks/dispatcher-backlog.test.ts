import { describe, expect, it } from 'vitest';
import { DEFAULT_PER_KEY_CONCURRENCY } from '../../src/webhooks/delivery-queue';
import { PER_TARGET_BACKLOG } from '../../src/webhooks/webhook-dispatcher';
import {
  buildWebhookApp,
  createWebhook,
  deliveriesOf,
  lifecycleData,
  receiver,
  settle,
  TEST_CORRELATION_ID,
  type WebhookTestApp,
  waitFor,
} from './webhook-test-support';

/** Records `count` events of the customer in ONE transaction: a single commit, a single wake-up. */
async function recordBacklog(testApp: WebhookTestApp, count: number): Promise<string[]> {
  const { app } = testApp;
  return app.store.transaction(async (tx) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const event = await app.services.events.record(tx, {
        customerId: testApp.customerId,
        type: 'message.sent',
        correlationId: TEST_CORRELATION_ID,
        data: lifecycleData({ text: `backlog ${index}` }),
      });
      ids.push(event.id);
    }
    return ids;
  });
}

/**
 * Asserts that `received` (event ids in arrival order) took the attempts in their due order
 * (`due`), as far as the receiver can tell. A receiver's lane starts its attempts in due order, at
 * most {@link DEFAULT_PER_KEY_CONCURRENCY} at a time, and an attempt's slot frees only once the
 * receiver has answered it: so when an attempt arrives, every attempt due before it has arrived
 * already except at most the others still in flight. That holds however long one of them stalls
 * (a loaded database, a slow connection), where a bound on how far an attempt moves does not: a
 * stalled attempt is overtaken by any number of the other slot's. Taking a later look-up's
 * attempts before an earlier one's leaves many due earlier behind each of them.
 */
function expectDueOrder(due: readonly string[], received: readonly string[]): void {
  const arrived = new Set<string>();
  for (const id of received) {
    const position = due.indexOf(id);
    const overtaken = due.slice(0, position).filter((earlier) => !arrived.has(earlier));
    expect(
      overtaken.length,
      `${id} (due ${position}) overtook ${overtaken.join(', ')}`,
    ).toBeLessThan(DEFAULT_PER_KEY_CONCURRENCY);
    arrived.add(id);
  }
}

describe('a backlog larger than one look-up', () => {
  // The poll timer is out of reach here: only the dispatcher's own top-ups can drain the backlog.
  const env = { WEBHOOK_POLL_INTERVAL_MS: '600000' };

  it('drains without waiting for the poll timer, in due order, each attempt once', async () => {
    const testApp = await buildWebhookApp({ env });
    const hook = await receiver();
    const webhook = await createWebhook(testApp.app, testApp.auth, {
      url: `${hook.origin}/h`,
      events: ['*'],
    });
    const count = 2 * PER_TARGET_BACKLOG;
    const ids = await recordBacklog(testApp, count);

    await waitFor(() => hook.requests.length >= count, 5000, 'every delivery of the backlog');
    await settle();
    const received = hook.requests.map((request) => request.headers['x-event-id']);
    expect(received).toHaveLength(count);
    expect(new Set(received).size).toBe(count);
    expect(new Set(received)).toEqual(new Set(ids));
    expectDueOrder(ids, received.map(String));
    await waitFor(async () => {
      const log = await deliveriesOf(testApp.app, testApp.auth, webhook.id);
      return log.length === count && log.every((row) => row.status === 'delivered');
    });
  });

  it('keeps every receiver flowing while one works through a long backlog', async () => {
    const testApp = await buildWebhookApp({ env });
    const busy = await receiver();
    await createWebhook(testApp.app, testApp.auth, { url: `${busy.origin}/busy`, events: ['*'] });
    const quiet = await receiver();
    await createWebhook(testApp.app, testApp.auth, {
      url: `${quiet.origin}/quiet`,
      events: ['message.sent'],
    });
    const count = PER_TARGET_BACKLOG + PER_TARGET_BACKLOG / 2;
    await recordBacklog(testApp, count);

    await waitFor(
      () => busy.requests.length >= count && quiet.requests.length >= count,
      5000,
      'both backlogs',
    );
    expect(busy.requests).toHaveLength(count);
    expect(quiet.requests).toHaveLength(count);
  });

  it('tops a lane up past a look-up that found less than a full quota but more than it had room for', async () => {
    const testApp = await buildWebhookApp({ env });
    // Slow receivers: at each top-up two attempts are in flight (leased, so the look-up does not
    // list them, yet they hold room in the lane). With a quota of Q, the first look-up queues Q,
    // and the first top-up comes when Q/2 are left in the lane, two of them in flight. With
    // 1.5 Q + 1 attempts it finds the Q/2 + 1 still in the database and the Q/2 - 2 queued, Q - 1
    // in all (less than a full quota), and has room for Q/2: one stays behind, and only a mark
    // on the receiver brings it out (Q = 8: thirteen attempts, seven found, room for four).
    const hooks: Awaited<ReturnType<typeof receiver>>[] = [];
    for (let index = 0; index < 6; index += 1) {
      const hook = await receiver((_request, response) => {
        setTimeout(() => response.writeHead(200).end('ok'), 10);
      });
      await createWebhook(testApp.app, testApp.auth, { url: `${hook.origin}/h`, events: ['*'] });
      hooks.push(hook);
    }
    const count = PER_TARGET_BACKLOG + PER_TARGET_BACKLOG / 2 + 1;
    await recordBacklog(testApp, count);

    // 15 s (the poll is 10 min away, so only the mechanism under test can bring them out): six
    // slow receivers' lanes drain slower than 5 s on a loaded PostgreSQL leg.
    await waitFor(
      () => hooks.every((hook) => hook.requests.length >= count),
      15_000,
      'every attempt of every receiver',
    );
    await settle();
    for (const hook of hooks) expect(hook.requests).toHaveLength(count);
  });

  it('takes attempts committed one by one straight to their lanes, each once, in order', async () => {
    const testApp = await buildWebhookApp({ env });
    // A slow receiver: the lane fills, so later attempts wait for look-ups behind the ones
    // handed over at commit, and both paths run at once.
    const hook = await receiver((_request, response) => {
      setTimeout(() => response.writeHead(200).end('ok'), 15);
    });
    const other = await receiver();
    await createWebhook(testApp.app, testApp.auth, { url: `${hook.origin}/h`, events: ['*'] });
    await createWebhook(testApp.app, testApp.auth, { url: `${other.origin}/o`, events: ['*'] });
    // One commit after the other (their order is the order they are due in), each handed over:
    // four quotas, so that the slow receiver's lane fills while they are committed.
    const count = 4 * PER_TARGET_BACKLOG;
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) ids.push(...(await recordBacklog(testApp, 1)));

    await waitFor(
      () => hook.requests.length >= count && other.requests.length >= count,
      5000,
      'every attempt of both receivers',
    );
    await settle();
    for (const received of [hook.requests, other.requests]) {
      const eventIds = received.map((request) => String(request.headers['x-event-id']));
      expect(eventIds).toHaveLength(count);
      expect(new Set(eventIds)).toEqual(new Set(ids));
      expectDueOrder(ids, eventIds);
    }
  });
});
