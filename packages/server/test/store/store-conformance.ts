import { describe, expect, it } from 'vitest';
import type { Repositories, Store } from '../../src/store/store';
import { firstSmsAttempt, outboundMessage } from './message-fixture';

const T0 = new Date('2026-01-15T12:00:00.000Z');

/**
 * The behaviour every {@link Store} backend must have. A backend's test file calls this with a
 * function that opens a fresh, migrated, empty store.
 */
export function describeStoreConformance(name: string, openStore: () => Promise<Store>): void {
  async function withStore(work: (store: Store) => Promise<void>): Promise<void> {
    const store = await openStore();
    try {
      await work(store);
    } finally {
      await store.close();
    }
  }

  async function seedCustomer(repos: Repositories, id: string) {
    await repos.customers.insert({
      id,
      name: id,
      settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
      createdAt: T0,
    });
  }

  async function seedInstance(store: Store, id = 'i1') {
    await store.instances.insert({
      id,
      name: `instance-${id}`,
      provider: 'simulator',
      channels: ['imessage', 'sms'],
      config: { url: 'http://mac.local' },
      enabled: true,
      ingressToken: 'ingr_test',
      updatedAt: T0,
      deletedAt: null,
      healthStatus: 'unknown',
      healthWarnings: [],
      healthCheckedAt: null,
      createdAt: T0,
    });
  }

  /** A customer, an instance, the outbound message `m1` and its first SMS attempt, with no provider id yet. */
  async function seedSmsAttempt(store: Store): Promise<string> {
    await seedCustomer(store, 'c1');
    await seedInstance(store);
    await store.messages.insert(outboundMessage('m1', T0));
    const attempt = firstSmsAttempt(T0);
    await store.messageAttempts.insert(attempt);
    return attempt.attemptId;
  }

  describe(`${name} store`, () => {
    it('pauses a number per channel once, keeps the first pause, and resumes it', () =>
      withStore(async (store) => {
        const t1 = T0.getTime();
        expect(await store.sendPolicies.findPauses('n1')).toEqual([]);
        expect(await store.sendPolicies.pause('n1', 'imessage', 'stalling', t1)).toBe(true);
        expect(await store.sendPolicies.pause('n1', 'imessage', 'again', t1 + 1000)).toBe(false);
        expect(await store.sendPolicies.pause('n1', 'sms', 'sms stalling', t1 + 2000)).toBe(true);
        expect(await store.sendPolicies.findPauses('n1')).toEqual([
          {
            numberId: 'n1',
            channel: 'imessage',
            pausedAt: t1,
            reason: 'stalling',
            resumedAt: null,
          },
          {
            numberId: 'n1',
            channel: 'sms',
            pausedAt: t1 + 2000,
            reason: 'sms stalling',
            resumedAt: null,
          },
        ]);
        expect(await store.sendPolicies.resume('n1', 'sms', t1 + 3000)).toEqual(['sms']);
        expect(await store.sendPolicies.resume('n1', 'sms', t1 + 4000)).toEqual([]);
        expect(await store.sendPolicies.resume('n1', undefined, t1 + 5000)).toEqual(['imessage']);
        expect(await store.sendPolicies.findPauses('n1')).toEqual([
          {
            numberId: 'n1',
            channel: 'imessage',
            pausedAt: null,
            reason: null,
            resumedAt: t1 + 5000,
          },
          { numberId: 'n1', channel: 'sms', pausedAt: null, reason: null, resumedAt: t1 + 3000 },
        ]);
        // Paused again after a resume: a new pause, the last resume kept.
        expect(await store.sendPolicies.pause('n1', 'sms', 'once more', t1 + 6000)).toBe(true);
        expect((await store.sendPolicies.findPauses('n1'))[1]).toEqual({
          numberId: 'n1',
          channel: 'sms',
          pausedAt: t1 + 6000,
          reason: 'once more',
          resumedAt: t1 + 3000,
        });
        expect(await store.sendPolicies.findPauses('n2')).toEqual([]);
      }));

    it('round-trips customers and soft-deletes them', () =>
      withStore(async (store) => {
        await seedCustomer(store, 'c1');
        await seedCustomer(store, 'c2');
        expect(await store.customers.findById('c1')).toEqual({
          id: 'c1',
          name: 'c1',
          settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
          createdAt: T0,
          deletedAt: null,
        });
        expect(await store.customers.markDeleted('c1', T0)).toBe(true);
        expect(await store.customers.markDeleted('c1', T0)).toBe(false);
        expect((await store.customers.findById('c1'))?.deletedAt).toEqual(T0);
        expect((await store.customers.listActive()).map((c) => c.id)).toEqual(['c2']);
        expect(await store.customers.count()).toBe(2);
      }));

    it('finds API keys by hash with their customer, and revokes them once', () =>
      withStore(async (store) => {
        await seedCustomer(store, 'c1');
        const key = {
          id: 'k1',
          customerId: 'c1',
          name: null,
          prefix: 'sk_abc',
          keyHash: 'f'.repeat(64),
          createdAt: T0,
          revokedAt: null,
        };
        await store.apiKeys.insert(key);
        const customer = await store.customers.findById('c1');
        expect(customer).toBeDefined();
        expect(await store.apiKeys.findByHashWithCustomer('f'.repeat(64))).toEqual({
          apiKey: key,
          customer,
        });
        expect(await store.apiKeys.findByHashWithCustomer('e'.repeat(64))).toBeUndefined();
        const later = new Date(T0.getTime() + 1000);
        expect((await store.apiKeys.revoke('k1', T0))?.revokedAt).toEqual(T0);
        expect((await store.apiKeys.revoke('k1', later))?.revokedAt).toEqual(T0);
        await store.customers.markDeleted('c1', later);
        expect(await store.apiKeys.findByHashWithCustomer('f'.repeat(64))).toEqual({
          apiKey: { ...key, revokedAt: T0 },
          customer: { ...customer, deletedAt: later },
        });
        expect(await store.apiKeys.listByCustomer('c2')).toEqual([]);
        await expect(store.apiKeys.insert({ ...key, id: 'k2' })).rejects.toThrow();
      }));

    it('scopes numbers by customer and keeps addresses unique across customers', () =>
      withStore(async (store) => {
        await seedCustomer(store, 'c1');
        await seedCustomer(store, 'c2');
        await seedInstance(store);
        const number = {
          id: 'n1',
          customerId: 'c1',
          instanceId: 'i1',
          channelInstances: {},
          phoneNumber: '+14155550100',
          email: 'a@example.com',
          isDefault: true,
          createdAt: T0,
        };
        await store.numbers.insert(number);
        expect(await store.numbers.findByAddress('c1', 'a@example.com')).toMatchObject({
          phoneNumber: '+14155550100',
          instanceName: 'instance-i1',
          healthStatus: 'unknown',
          instanceChannels: ['imessage', 'sms'],
        });
        expect(await store.numbers.findByAddress('c2', '+14155550100')).toBeUndefined();
        expect((await store.numbers.findByAddressInAnyCustomer('+14155550100'))?.customerId).toBe(
          'c1',
        );
        expect(await store.numbers.findDefault('c2')).toBeUndefined();
        await expect(
          store.numbers.insert({ ...number, id: 'n2', customerId: 'c2' }),
        ).rejects.toThrow();
        await expect(
          store.numbers.insert({ ...number, id: 'n3', phoneNumber: '+14155550101', email: null }),
        ).rejects.toThrow(); // a second default for c1
        expect(await store.numbers.delete('c2', '+14155550100')).toBe(false);
        expect(await store.numbers.delete('c1', '+14155550100')).toBe(true);
      }));

    it('commits a transaction as a whole or not at all', () =>
      withStore(async (store) => {
        await store.transaction(async (tx) => {
          await seedCustomer(tx, 'kept');
        });
        await expect(
          store.transaction(async (tx) => {
            await seedCustomer(tx, 'rolled-back');
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect((await store.customers.listActive()).map((c) => c.id)).toEqual(['kept']);
      }));

    it('rolls back only the nested transaction that failed', () =>
      withStore(async (store) => {
        await store.transaction(async (tx) => {
          await seedCustomer(tx, 'outer');
          await tx
            .transaction(async (inner) => {
              await seedCustomer(inner, 'inner');
              throw new Error('inner failed');
            })
            .catch(() => undefined);
        });
        expect((await store.customers.listActive()).map((c) => c.id)).toEqual(['outer']);
      }));

    it('never interleaves other operations with an open transaction', () =>
      withStore(async (store) => {
        const order: string[] = [];
        let started: () => void = () => undefined;
        const open = new Promise<void>((resolve) => {
          started = resolve;
        });
        let outside: Promise<unknown> = Promise.resolve();
        const transaction = store.transaction(async (tx) => {
          order.push('tx:start');
          await seedCustomer(tx, 'a');
          started();
          if (store.kind === 'postgres') {
            // The transaction stays open until the outside read (issued once `open` settles) has
            // answered: it would hang if the read waited for the commit.
            await new Promise((resolve) => setImmediate(resolve));
            await outside;
          } else {
            // SQLite's read can only wait for the commit: give it the time to jump the queue.
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          order.push('tx:end');
        });
        // Issued while the transaction is open (its write not committed yet): it waits for the
        // commit and sees the row, never the half-done transaction.
        await open;
        outside = store.customers.count().then((n) => order.push(`outside:${n}`));
        await Promise.all([transaction, outside]);
        // SQLite has one connection: the read waits for the commit. PostgreSQL reads on another
        // connection at once and sees the state before the transaction. Neither sees its
        // uncommitted write.
        expect(order).toEqual(
          store.kind === 'sqlite'
            ? ['tx:start', 'tx:end', 'outside:1']
            : ['tx:start', 'outside:0', 'tx:end'],
        );
      }));

    it('lets an operation issued before a transaction opens see the state before it', () =>
      withStore(async (store) => {
        const order: string[] = [];
        const transaction = store.transaction(async (tx) => {
          order.push('tx:start');
          await seedCustomer(tx, 'a');
          order.push('tx:end');
        });
        const outside = store.customers.count().then((n) => order.push(`outside:${n}`));
        await Promise.all([transaction, outside]);
        // The state before the transaction or after its commit, never its uncommitted write (on
        // PostgreSQL the read may also run while the transaction is open, on another connection).
        const seen = store.kind === 'sqlite' ? order : order.filter((step) => step !== 'outside:0');
        expect([
          ['outside:0', 'tx:start', 'tx:end'],
          ['tx:start', 'tx:end', 'outside:1'],
          ...(store.kind === 'sqlite' ? [] : [['tx:start', 'tx:end']]),
        ]).toContainEqual(seen);
        expect(await store.customers.count()).toBe(1);
      }));

    it('refuses the outer store inside its own transaction instead of waiting forever', () =>
      withStore(async (store) => {
        await expect(store.transaction(() => store.customers.count())).rejects.toThrow(
          /inside its own transaction/,
        );
        expect(await store.customers.count()).toBe(0);
      }));

    it('answers ping', () => withStore((store) => store.ping()));

    it('reads and writes provider state in batches, a failed batch leaving nothing behind', () =>
      withStore(async (store) => {
        await seedInstance(store);
        await store.providerState.setMany(
          'i1',
          new Map([
            ['a', '1'],
            ['b', '2'],
          ]),
        );
        await store.providerState.setMany(
          'i1',
          new Map<string, string | null>([
            ['a', null],
            ['c', '3'],
          ]),
        );
        expect(
          Object.fromEntries(await store.providerState.getMany('i1', ['a', 'b', 'c', 'd'])),
        ).toEqual({ b: '2', c: '3' });
        // An unknown instance breaks the foreign key halfway through: nothing of it is kept.
        await expect(
          store.providerState.setMany(
            'nope',
            new Map([
              ['x', '1'],
              ['y', '2'],
            ]),
          ),
        ).rejects.toThrow();
        expect((await store.providerState.getMany('nope', ['x', 'y'])).size).toBe(0);
        // Inside a transaction it is a nested savepoint, rolled back with its transaction.
        await expect(
          store.transaction(async (tx) => {
            await tx.providerState.setMany('i1', new Map([['t', '1']]));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.providerState.get('i1', 't')).toBeUndefined();
      }));

    it("serializes transactions that lock one attempt: the later sees the earlier's writes", () =>
      withStore(async (store) => {
        // No provider id yet: the lock does not depend on one.
        const attemptId = await seedSmsAttempt(store);
        await store.messageParts.insertAll(
          [0, 1].map((partIndex) => ({
            attemptId,
            partIndex,
            instanceId: 'i1',
            externalId: `SM-${partIndex}`,
            kind: 'attachment' as const,
            status: null,
            errorCode: null,
            errorMessage: null,
          })),
        );
        // Two parts settled at once, each reading its siblings before it writes (as a status
        // update does): without the lock, both would see none settled and neither would move
        // the message on (PostgreSQL's snapshots); with it, the later one sees the earlier.
        const settle = (partIndex: number) =>
          store.transaction(async (tx) => {
            await tx.messageAttempts.lock(attemptId);
            const parts = await tx.messageParts.listByAttempt(attemptId);
            await new Promise((resolve) => setTimeout(resolve, 30));
            await tx.messageParts.updateStatus(attemptId, partIndex, 'delivered', null);
            return parts.filter((part) => part.status === 'delivered').length;
          });
        const seen = await Promise.all([settle(0), settle(1)]);
        expect(seen.sort()).toEqual([0, 1]);
        expect(
          (await store.messageParts.listByAttempt(attemptId)).map((part) => part.status),
        ).toEqual(['delivered', 'delivered']);
        // The attempt is as it was.
        expect(await store.messageAttempts.findById(attemptId)).toMatchObject({
          attempt: 0,
          externalId: null,
        });
      }));

    it('reads a status update’s part, attempt and message at once, and nothing for an unknown attempt', () =>
      withStore(async (store) => {
        const attemptId = await seedSmsAttempt(store);
        await store.messageAttempts.recordAccepted(attemptId, 'SM-0');
        const whole = await store.messageAttempts.findStatusTarget(attemptId, 'i1', 'SM-0');
        expect(whole?.part).toBeUndefined();
        expect(whole?.attempt).toMatchObject({ attemptId, externalId: 'SM-0', instanceId: 'i1' });
        expect(whole?.message).toEqual(await store.messages.findByIdInAnyCustomer('m1'));
        expect(whole?.message).toMatchObject({ id: 'm1', to: expect.any(String) });
        await store.messageParts.insertAll([
          {
            attemptId,
            partIndex: 1,
            instanceId: 'i1',
            externalId: 'SM-1',
            kind: 'attachment',
            status: 'sent',
            errorCode: null,
            errorMessage: null,
          },
        ]);
        const ofPart = await store.messageAttempts.findStatusTarget(attemptId, 'i1', 'SM-1');
        expect(ofPart?.part).toEqual(await store.messageParts.findByExternalId('i1', 'SM-1'));
        expect(ofPart?.part).toMatchObject({ partIndex: 1, status: 'sent' });
        // Another instance's id names no part of this one.
        expect((await store.messageAttempts.findStatusTarget(attemptId, 'i2', 'SM-1'))?.part).toBe(
          undefined,
        );
        expect(await store.messageAttempts.findStatusTarget('m9:0:sms', 'i1', 'SM-1')).toBe(
          undefined,
        );
      }));

    it('keeps the updates that race an attempt’s recording and hands each to it or past it, once', () =>
      withStore(async (store) => {
        const attemptId = await seedSmsAttempt(store);
        const update = (n: number) => ({
          externalId: `SM-${n}`,
          status: 'delivered' as const,
          channel: 'sms' as const,
          occurredAt: T0.getTime() + n,
        });
        // Status updates keep themselves while the attempt has no provider id (reading the kept
        // list, then writing it longer, as the status handler does); once it has one, they are
        // applied instead. The send's recording runs among them.
        const appliedLater: string[] = [];
        const keep = (n: number) =>
          store.transaction(async (tx) => {
            const attempt = await tx.messageAttempts.findById(attemptId);
            await new Promise((resolve) => setTimeout(resolve, 5 * (n % 3)));
            if (attempt?.externalId === null) {
              const kept = [...(attempt.earlyUpdates ?? []), update(n)];
              await tx.messageAttempts.setEarlyUpdates(attemptId, kept);
              return;
            }
            appliedLater.push(`SM-${n}`);
          });
        const recording = new Promise<string[]>((resolve, reject) =>
          setTimeout(() => {
            store
              .transaction((tx) => tx.messageAttempts.recordAccepted(attemptId, 'SM-0'))
              .then((early) => resolve(early.map((kept) => kept.externalId)), reject);
          }, 8),
        );
        const [handed] = await Promise.all([
          recording,
          ...Array.from({ length: 8 }, (_, n) => keep(n + 1)),
        ]);
        expect([...handed, ...appliedLater].sort()).toEqual(
          Array.from({ length: 8 }, (_, n) => `SM-${n + 1}`).sort(),
        );
        expect(await store.messageAttempts.findById(attemptId)).toMatchObject({
          externalId: 'SM-0',
        });
        // Once applied, the kept list is cleared, and a recording with none answers none.
        await store.messageAttempts.setEarlyUpdates(attemptId, null);
        expect(await store.messageAttempts.recordAccepted(attemptId, 'SM-0')).toEqual([]);
      }));

    it('gives a provider lease to one holder at a time until it expires or is released', () =>
      withStore(async (store) => {
        await seedInstance(store);
        const t = T0.getTime();
        const leases = store.providerLeases;
        expect(await leases.acquire('i1', 'wa:+1', 'a', t, t + 15_000)).toBe(true);
        expect(await leases.acquire('i1', 'wa:+1', 'b', t + 1_000, t + 16_000)).toBe(false);
        // The holder renews it; another name is another lease.
        expect(await leases.acquire('i1', 'wa:+1', 'a', t + 5_000, t + 20_000)).toBe(true);
        expect(await leases.acquire('i1', 'wa:+2', 'b', t + 5_000, t + 20_000)).toBe(true);
        expect(await leases.acquire('i1', 'wa:+1', 'b', t + 19_999, t + 30_000)).toBe(false);
        // Expired: the next holder takes it, and the old one can no longer renew.
        expect(await leases.acquire('i1', 'wa:+1', 'b', t + 20_000, t + 35_000)).toBe(true);
        expect(await leases.acquire('i1', 'wa:+1', 'a', t + 21_000, t + 36_000)).toBe(false);
        // Only the holder releases it.
        await leases.release('i1', 'wa:+1', 'a');
        expect(await leases.acquire('i1', 'wa:+1', 'a', t + 22_000, t + 37_000)).toBe(false);
        await leases.release('i1', 'wa:+1', 'b');
        expect(await leases.acquire('i1', 'wa:+1', 'a', t + 22_000, t + 37_000)).toBe(true);
        // Racing for a free lease: exactly one of many wins.
        const racers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            leases.acquire('i1', 'wa:+3', `r${i}`, t, t + 15_000),
          ),
        );
        expect(racers.filter(Boolean)).toHaveLength(1);
        await leases.deleteAll('i1');
        expect(await leases.acquire('i1', 'wa:+1', 'z', t, t + 1)).toBe(true);
      }));

    it('keeps unrouted inbound items: filtered, counted per address, oldest first, deleted', () =>
      withStore(async (store) => {
        await seedInstance(store, 'i1');
        await seedInstance(store, 'i2');
        const kept = store.unroutedInbound;
        const item = (id: string, instanceId: string, address: string, minutes: number) => ({
          id,
          instanceId,
          address,
          kind: 'message.inbound',
          reason: 'address_not_assigned' as const,
          from: '+14155550123',
          channel: 'imessage' as const,
          payload: `{"id":"${id}","secret":"https://mac.local/a?password=p"}`,
          receivedAt: new Date(T0.getTime() + minutes * 60_000),
        });
        // Inserted out of order; the same millisecond is ordered by id.
        await kept.insert(item('unr_3', 'i1', '+1999', 2));
        await kept.insert(item('unr_1', 'i1', '+1999', 0));
        await kept.insert(item('unr_2', 'i1', '+1999', 0));
        await kept.insert(item('unr_4', 'i2', 'alias@example.com', 1));
        await kept.insert(item('unr_1', 'i1', '+1999', 5));
        expect((await kept.list({}, 10)).map((r) => r.id)).toEqual([
          'unr_1',
          'unr_2',
          'unr_4',
          'unr_3',
        ]);
        const [first] = await kept.list({ instanceId: 'i1', address: '+1999' }, 1);
        expect(first).toEqual(item('unr_1', 'i1', '+1999', 0));
        expect(await kept.count({})).toBe(4);
        expect(await kept.count({ instanceId: 'i2' })).toBe(1);
        expect(await kept.count({ address: '+1999' })).toBe(3);
        expect(await kept.countByAddress()).toEqual([
          { instanceId: 'i1', address: '+1999', count: 3 },
          { instanceId: 'i2', address: 'alias@example.com', count: 1 },
        ]);
        expect(await kept.delete('unr_2')).toBe(true);
        expect(await kept.delete('unr_2')).toBe(false);
        expect(await kept.deleteBefore(new Date(T0.getTime() + 60_000))).toBe(1);
        expect(await kept.deleteMatching({ address: 'alias@example.com' })).toBe(1);
        expect((await kept.list({}, 10)).map((r) => r.id)).toEqual(['unr_3']);
        expect(await kept.deleteMatching({ instanceId: 'i1' })).toBe(1);
        expect(await kept.count({})).toBe(0);
      }));
  });
}
