import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../src/store/message-repository';
import { SerialLock } from '../../src/store/sqlite/serial-lock';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/test-app';
import { outboundMessage } from './message-fixture';

const T0 = new Date('2026-02-01T08:00:00.250Z');

function message(id: string, overrides: Partial<MessageRecord> = {}): MessageRecord {
  return outboundMessage(id, T0, overrides);
}

/**
 * The prepared statements of the send and delivery paths, through the store's repositories:
 * every column type decodes back to what was written, and each query shape answers as the
 * drizzle-built one did.
 */
describe('SQLite hot paths', () => {
  const opened: Array<{ close: () => unknown }> = [];

  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  async function open(): Promise<{ store: SqliteStore; path: string }> {
    const path = join(tempDir(), 'hot-paths.db');
    const store = openSqliteStore(path);
    opened.push(store);
    for (const id of ['c1', 'c2']) {
      await store.customers.insert({
        id,
        name: id,
        settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
        createdAt: T0,
      });
    }
    await store.instances.insert({
      id: 'i1',
      name: 'sim',
      provider: 'simulator',
      channels: ['imessage', 'sms'],
      config: {},
      enabled: true,
      ingressToken: 'ingr_test',
      updatedAt: T0,
      deletedAt: null,
      healthStatus: 'healthy',
      healthWarnings: [],
      healthCheckedAt: null,
      createdAt: T0,
    });
    return { store, path };
  }

  it('round-trips a message with every column type, and applies patches of any shape', async () => {
    const { store } = await open();
    const sent = message('m1', { scheduledAt: new Date(T0.getTime() + 5) });
    expect(await store.messages.insert(sent)).toBe(true);
    expect(await store.messages.findById('c1', 'm1')).toEqual(sent);
    expect(await store.messages.findById('c2', 'm1')).toBeUndefined();

    const later = new Date(T0.getTime() + 1000);
    const timeline = [...sent.timeline, { status: 'pending' as const, at: 1, channel: null }];
    expect(
      await store.messages.transition('m1', ['queued'], {
        status: 'pending',
        timeline,
        updatedAt: later,
      }),
    ).toBe(true);
    expect(await store.messages.transition('m1', ['queued'], { status: 'sent' })).toBe(false);
    await store.messages.update('m1', { externalId: 'ext-1', fallbackTriggered: true });
    expect(await store.messages.findByIdInAnyCustomer('m1')).toEqual({
      ...sent,
      status: 'pending',
      timeline,
      updatedAt: later,
      externalId: 'ext-1',
      fallbackTriggered: true,
    });
    expect(await store.messages.findByExternalId('i1', 'ext-1')).toEqual(
      await store.messages.findById('c1', 'm1'),
    );

    // A deleted message moves only when the transition includes deleted ones.
    await store.messages.update('m1', { deletedAt: later });
    expect(await store.messages.transition('m1', ['sent', 'pending'], { status: 'sent' })).toBe(
      false,
    );
    expect(
      await store.messages.transition(
        'm1',
        ['sent', 'pending'],
        { status: 'sent' },
        { includeDeleted: true },
      ),
    ).toBe(true);
    expect(await store.messages.findById('c1', 'm1')).toMatchObject({
      status: 'sent',
      deletedAt: later,
    });
  });

  it('turns a duplicate idempotency key into false and stores nothing', async () => {
    const { store } = await open();
    expect(await store.messages.insert(message('m1', { idempotencyKey: 'k' }))).toBe(true);
    expect(await store.messages.insert(message('m2', { idempotencyKey: 'k' }))).toBe(false);
    expect(await store.messages.findById('c1', 'm2')).toBeUndefined();
    // Another customer may use the same key; messages without a key never conflict.
    expect(
      await store.messages.insert(message('m3', { customerId: 'c2', idempotencyKey: 'k' })),
    ).toBe(true);
    expect(await store.messages.insert(message('m4'))).toBe(true);
    expect(await store.messages.insert(message('m5'))).toBe(true);
    expect((await store.messages.findByIdempotencyKey('c1', 'k'))?.id).toBe('m1');
  });

  it('lists pages for every filter and cursor shape', async () => {
    const { store } = await open();
    for (let index = 0; index < 6; index += 1) {
      await store.messages.insert(
        message(`m${index}`, {
          to: index % 2 === 0 ? '+1even' : '+1odd',
          status: index < 3 ? 'delivered' : 'read',
          createdAt: new Date(T0.getTime() + index),
          suppressed: index === 5,
        }),
      );
    }
    const ids = (rows: MessageRecord[]) => rows.map((row) => row.id);
    expect(ids(await store.messages.list('c1', { limit: 10 }))).toEqual([
      'm4',
      'm3',
      'm2',
      'm1',
      'm0',
    ]);
    expect(ids(await store.messages.list('c1', { limit: 10, to: '+1even' }))).toEqual([
      'm4',
      'm2',
      'm0',
    ]);
    expect(ids(await store.messages.list('c1', { limit: 10, status: 'read' }))).toEqual([
      'm4',
      'm3',
    ]);
    const after = { createdAt: new Date(T0.getTime() + 3), id: 'm3' };
    expect(ids(await store.messages.list('c1', { limit: 2, after }))).toEqual(['m2', 'm1']);
    expect(
      ids(await store.messages.list('c1', { limit: 10, after, to: '+1even', status: 'delivered' })),
    ).toEqual(['m2', 'm0']);
    expect(await store.messages.list('c2', { limit: 10 })).toEqual([]);
    // Pages decode every column as the look-up by id does.
    for (const row of await store.messages.list('c1', { limit: 10 })) {
      expect(row).toEqual(await store.messages.findById('c1', row.id));
    }
  });

  it('lists scheduled messages soonest first, after a cursor', async () => {
    const { store } = await open();
    for (const [id, offset] of [
      ['s1', 30],
      ['s2', 10],
      ['s3', 20],
    ] as const) {
      await store.messages.insert(
        message(id, { status: 'scheduled', scheduledAt: new Date(T0.getTime() + offset) }),
      );
    }
    const page = await store.messages.listScheduled('c1', { limit: 2 });
    expect(page.map((row) => row.id)).toEqual(['s2', 's3']);
    const last = page[1];
    if (last?.scheduledAt == null) throw new Error('expected a scheduled message');
    const next = await store.messages.listScheduled('c1', {
      limit: 2,
      after: { scheduledAt: last.scheduledAt, id: last.id },
    });
    expect(next).toEqual([await store.messages.findById('c1', 's1')]);
  });

  it('stores attempts once and records their provider id', async () => {
    const { store } = await open();
    await store.messages.insert(message('m1'));
    const attempt = {
      attemptId: 'm1:0:imessage',
      messageId: 'm1',
      customerId: 'c1',
      instanceId: 'i1',
      attempt: 0,
      channel: 'imessage' as const,
      externalId: null,
      createdAt: T0,
    };
    await store.messageAttempts.insert(attempt);
    await store.messageAttempts.insert({ ...attempt, attempt: 9 });
    const early = [
      { externalId: 'ext-1', status: 'sent' as const, channel: 'imessage' as const, occurredAt: 1 },
    ];
    await store.messageAttempts.setEarlyUpdates('m1:0:imessage', early);
    expect(await store.messageAttempts.recordAccepted('m1:0:imessage', 'ext-1')).toEqual(early);
    expect(await store.messageAttempts.findById('m1:0:imessage')).toEqual({
      ...attempt,
      externalId: 'ext-1',
      earlyUpdates: early,
    });
  });

  it("finds a part by provider id, the latest attempt's when an id was reused", async () => {
    const { store } = await open();
    await store.messages.insert(message('m1'));
    const attempt = (n: number) => ({
      attemptId: `m1:${n}:sms`,
      messageId: 'm1',
      customerId: 'c1',
      instanceId: 'i1',
      attempt: n,
      channel: 'sms' as const,
      externalId: null,
      createdAt: T0,
    });
    const part = (n: number, partIndex: number, externalId: string) => ({
      attemptId: `m1:${n}:sms`,
      partIndex,
      instanceId: 'i1',
      externalId,
      kind: 'attachment' as const,
      status: null,
      errorCode: null,
      errorMessage: null,
    });
    for (const n of [1, 0, 2]) await store.messageAttempts.insert(attempt(n));
    await store.messageParts.insertAll([part(1, 0, 'SM-a'), part(1, 1, 'SM-b')]);
    await store.messageParts.insertAll([part(0, 0, 'SM-a'), part(0, 1, 'SM-x')]);
    await store.messageParts.insertAll([part(2, 0, 'SM-c'), part(2, 1, 'SM-a')]);
    expect(await store.messageParts.findByExternalId('i1', 'SM-a')).toEqual(part(2, 1, 'SM-a'));
    expect(await store.messageParts.findByExternalId('i1', 'SM-b')).toEqual(part(1, 1, 'SM-b'));
    expect(await store.messageParts.findByExternalId('i1', 'SM-missing')).toBeUndefined();
    expect(await store.messageParts.findByExternalId('i2', 'SM-a')).toBeUndefined();
  });

  it('replaces cached availability answers and finds sender numbers', async () => {
    const { store } = await open();
    const entry = {
      customerId: 'c1',
      instanceId: 'i1',
      address: '+15550000002',
      availability: { address: '+15550000002', channels: { imessage: true }, checkedAt: 1 },
      cachedAt: T0,
    };
    await store.capabilityCache.put(entry);
    const later = {
      ...entry,
      availability: { ...entry.availability, channels: {} },
      cachedAt: new Date(T0.getTime() + 1),
    };
    await store.capabilityCache.put(later);
    expect(await store.capabilityCache.find('c1', 'i1', '+15550000002')).toEqual(later);
    expect(await store.capabilityCache.find('c2', 'i1', '+15550000002')).toBeUndefined();

    const number = {
      customerId: 'c1',
      instanceId: 'i1',
      email: 'me@example.com',
      createdAt: T0,
    };
    await store.numbers.insert({
      ...number,
      id: 'n1',
      phoneNumber: '+15550000001',
      isDefault: false,
      channelInstances: {},
    });
    await store.numbers.insert({
      ...number,
      id: 'n2',
      phoneNumber: '+15550000009',
      email: null,
      isDefault: true,
      channelInstances: {},
    });
    const view = {
      instanceName: 'sim',
      healthStatus: 'healthy',
      instanceChannels: ['imessage', 'sms'],
    };
    expect(await store.numbers.findByAddress('c1', 'me@example.com')).toEqual({
      ...number,
      ...view,
      id: 'n1',
      phoneNumber: '+15550000001',
      isDefault: false,
      channelInstances: {},
    });
    expect((await store.numbers.findDefault('c1'))?.id).toBe('n2');
    expect((await store.numbers.findByAddressInAnyCustomer('+15550000009'))?.id).toBe('n2');
    expect(await store.numbers.findByAddress('c2', 'me@example.com')).toBeUndefined();
    expect((await store.numbers.listByCustomer('c1')).map((row) => row.id)).toEqual(['n2', 'n1']);
  });
});

describe('SQLite group commit timing', () => {
  const opened: Array<{ close: () => unknown }> = [];

  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  function open(): { store: SqliteStore; committed: () => number } {
    const path = join(tempDir(), 'group-timing.db');
    const store = openSqliteStore(path);
    const reader = new Database(path, { readonly: true });
    opened.push(reader, store);
    const count = reader.prepare('select count(*) as n from customers');
    return { store, committed: () => (count.get() as { n: number }).n };
  }

  it('groups transactions that arrive later in the same turn of the event loop', async () => {
    const { store, committed } = open();
    const seen: number[] = [];
    const first = store.transaction(async (tx) => {
      await tx.customers.insert({
        id: 'a',
        name: 'a',
        settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
        createdAt: T0,
      });
    });
    // A few microtasks later, still in the same turn: it joins the first one's commit.
    for (let tick = 0; tick < 5; tick += 1) await Promise.resolve();
    const second = store.transaction(async (tx) => {
      seen.push(committed());
      await tx.customers.insert({
        id: 'b',
        name: 'b',
        settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
        createdAt: T0,
      });
    });
    await Promise.all([first, second]);
    expect(seen).toEqual([0]);
    expect(committed()).toBe(2);
  });

  it('commits more concurrent transactions than one group holds', async () => {
    const { store, committed } = open();
    const ids = Array.from({ length: 600 }, (_, index) => `c${index}`);
    await Promise.all(
      ids.map((id) =>
        store.transaction((tx) =>
          tx.customers.insert({
            id,
            name: id,
            settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
            createdAt: T0,
          }),
        ),
      ),
    );
    expect(committed()).toBe(600);
  });
});

describe('SerialLock', () => {
  it('refuses a task that waits for its own lock when it detects re-entry', async () => {
    const lock = new SerialLock({ detectReentry: true });
    await expect(lock.run(() => lock.run(() => 1))).rejects.toThrow(/inside its own transaction/);
    expect(await lock.run(() => 2)).toBe(2);
  });

  it('skips the detection, and its AsyncLocalStorage, when told to', async () => {
    const lock = new SerialLock({ detectReentry: false });
    const order: number[] = [];
    await Promise.all([
      lock.run(async () => {
        expect(lock.reentryError()).toBeUndefined();
        await Promise.resolve();
        order.push(1);
      }),
      lock.run(() => order.push(2)),
    ]);
    expect(order).toEqual([1, 2]);
  });
});
