import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../src/store/delivery-repository';
import type { EventRecord } from '../../src/store/event-repository';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { WebhookRecord } from '../../src/store/webhook-repository';
import { tempDir } from '../support/test-app';

const T0 = new Date('2026-01-15T12:00:00.250Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

const HOOK_A = '01940000-0000-7000-8000-00000000000a';
const HOOK_B = '01940000-0000-7000-8000-00000000000b';
const HOOK_OFF = '01940000-0000-7000-8000-00000000000c';
const HOOK_OTHER = '01940000-0000-7000-8000-00000000000d';
const CALLBACK = 'https://example.com/callback';

let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

function webhook(id: string, overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    id,
    customerId: 'c1',
    name: null,
    url: `https://example.com/${id}`,
    events: ['*'],
    secret: `whsec_${id}`,
    active: true,
    exhaustedChains: 0,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

const event: EventRecord = {
  id: 'evt_01940000-0000-7000-8000-000000000001',
  customerId: 'c1',
  type: 'message.sent',
  payload: '{"id":"evt_01940000-0000-7000-8000-000000000001"}',
  correlationId: 'cor_0123456789abcdef0123456789abcdef',
  messageId: 'msg_01940000-0000-7000-8000-000000000001',
  callbackUrl: CALLBACK,
  createdAt: T0,
};

let sequence = 0;
function delivery(overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  sequence += 1;
  return {
    id: `01940000-0000-7000-8000-${String(sequence).padStart(12, '0')}`,
    customerId: 'c1',
    webhookId: HOOK_A,
    targetUrl: null,
    eventId: event.id,
    eventType: 'message.sent',
    attempt: 1,
    trigger: 'event',
    status: 'pending',
    statusCode: null,
    durationMs: null,
    error: null,
    responseBody: null,
    createdAt: T0,
    attemptedAt: null,
    nextAttemptAt: T0,
    leaseOwner: null,
    leaseUntil: null,
    ...overrides,
  };
}

/** A store with customers c1 and c2, four webhooks and one event of c1. */
async function seeded(): Promise<SqliteStore> {
  store = openSqliteStore(join(tempDir(), 'store.db'));
  for (const id of ['c1', 'c2']) {
    await store.customers.insert({
      id,
      name: id,
      settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
      createdAt: T0,
    });
  }
  await store.webhooks.insert(webhook(HOOK_A, { events: ['message.sent', 'message.failed'] }));
  await store.webhooks.insert(webhook(HOOK_B, { createdAt: at(1) }));
  await store.webhooks.insert(webhook(HOOK_OFF, { active: false, createdAt: at(2) }));
  await store.webhooks.insert(webhook(HOOK_OTHER, { customerId: 'c2' }));
  await store.events.insert(event);
  return store;
}

describe('SQLite webhook look-ups and delivery queue', () => {
  it('round-trips an event and every column of a delivery through the prepared writes', async () => {
    const db = await seeded();
    expect(await db.events.findById('c1', event.id)).toEqual(event);
    const settled = delivery({
      status: 'retrying',
      statusCode: 503,
      durationMs: 12,
      error: 'receiver answered HTTP 503',
      attempt: 2,
      trigger: 'retry',
      attemptedAt: at(5),
      nextAttemptAt: at(30_000),
      leaseOwner: 'worker',
      leaseUntil: at(60_000),
    });
    const pending = delivery({ webhookId: null, targetUrl: CALLBACK });
    await db.deliveries.insertMany([settled, pending]);
    expect(await db.deliveries.findForWebhook('c1', HOOK_A, settled.id)).toEqual(settled);
    const claimed = await db.deliveries.claim(pending.id, 'w1', T0, at(40_000));
    expect(claimed).toEqual({
      delivery: { ...pending, leaseOwner: 'w1', leaseUntil: at(40_000) },
      payload: event.payload,
      correlationId: event.correlationId,
      webhook: null,
      customerDeleted: false,
    });
  });

  it("lists a customer's active webhooks subscribed to a type, oldest first", async () => {
    const db = await seeded();
    const ids = (type: Parameters<typeof db.webhooks.listActiveSubscribedIds>[1]) =>
      db.webhooks.listActiveSubscribedIds('c1', type);
    expect(await ids('message.sent')).toEqual([HOOK_A, HOOK_B]);
    expect(await ids('message.delivered')).toEqual([HOOK_B]);
    expect(await db.webhooks.listActiveSubscribedIds('c3', 'message.sent')).toEqual([]);
    expect((await db.webhooks.findOldestActive('c1'))?.id).toBe(HOOK_A);
  });

  it('finds the receivers with due work and their due, unleased attempts in due order', async () => {
    const db = await seeded();
    const late = delivery({ nextAttemptAt: at(2) });
    const early = delivery({ nextAttemptAt: at(1) });
    const leased = delivery({ leaseOwner: 'w', leaseUntil: at(10_000) });
    const leaseLapsed = delivery({ leaseOwner: 'w', leaseUntil: at(5) });
    const notDue = delivery({ webhookId: HOOK_B, nextAttemptAt: at(60_000) });
    const done = delivery({ webhookId: HOOK_B, status: 'delivered', nextAttemptAt: null });
    const callback = delivery({ webhookId: null, targetUrl: CALLBACK });
    await db.deliveries.insertMany([late, early, leased, leaseLapsed, notDue, done, callback]);

    const now = at(100);
    expect(await db.deliveries.listDueTargets(now)).toEqual([HOOK_A, `url:${CALLBACK}`]);
    expect(await db.deliveries.listDueTargets(at(60_000))).toEqual([
      HOOK_A,
      HOOK_B,
      `url:${CALLBACK}`,
    ]);
    const due = await db.deliveries.listDueFor(now, [HOOK_A, HOOK_B, `url:${CALLBACK}`], 10);
    expect(due).toEqual([
      { id: leaseLapsed.id, targetKey: HOOK_A },
      { id: early.id, targetKey: HOOK_A },
      { id: late.id, targetKey: HOOK_A },
      { id: callback.id, targetKey: `url:${CALLBACK}` },
    ]);
    expect(await db.deliveries.listDueFor(now, [HOOK_A], 2)).toEqual(due.slice(0, 2));
  });

  it('claims an attempt once, records it for the lease holder only, and drops it from the queue', async () => {
    const db = await seeded();
    const attempt = delivery({ nextAttemptAt: at(10) });
    await db.deliveries.insertMany([attempt]);
    expect(await db.deliveries.claim(attempt.id, 'w1', T0, at(1000))).toBeUndefined();
    expect(await db.deliveries.claim(attempt.id, 'w1', at(10), at(1000))).toBeDefined();
    expect(await db.deliveries.claim(attempt.id, 'w2', at(20), at(1000))).toBeUndefined();
    const result = {
      status: 'delivered',
      statusCode: 200,
      durationMs: 3,
      error: null,
      responseBody: null,
      attemptedAt: at(20),
      nextAttemptAt: null,
    } as const;
    expect(await db.deliveries.complete(attempt.id, 'w2', result)).toBe(false);
    expect(await db.deliveries.complete(attempt.id, 'w1', result)).toBe(true);
    expect(await db.deliveries.findForWebhook('c1', HOOK_A, attempt.id)).toEqual({
      ...attempt,
      ...result,
      leaseOwner: null,
      leaseUntil: null,
    });
    expect(await db.deliveries.listDueTargets(at(5000))).toEqual([]);
  });
});
