import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Repositories } from '../../src/store/store';
import { tempDir } from '../support/test-app';

const T0 = new Date('2026-01-01T00:00:00Z');

async function seedCustomer(repos: Repositories, id: string): Promise<void> {
  await repos.customers.insert({
    id,
    name: id,
    settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
    createdAt: T0,
  });
}

/**
 * Transactions that arrive together commit together (one SQLite transaction, a savepoint each):
 * observed from a second connection, which sees only what is committed.
 */
describe('SQLite group commit', () => {
  const opened: Array<{ close: () => unknown }> = [];

  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  function open(): { store: SqliteStore; committedCustomers: () => string[] } {
    const path = join(tempDir(), 'group-commit.db');
    const store = openSqliteStore(path);
    const reader = new Database(path, { readonly: true });
    opened.push(reader, store);
    const select = reader.prepare('select id from customers order by id');
    return {
      store,
      committedCustomers: () => select.all().map((row) => (row as { id: string }).id),
    };
  }

  it('commits concurrent transactions together, and only then answers and runs afterCommit', async () => {
    const { store, committedCustomers } = open();
    const events: string[] = [];
    let seenByLast: string[] | undefined;
    const ids = ['a', 'b', 'c'];
    const results = await Promise.all(
      ids.map((id) =>
        store
          .transaction(async (tx) => {
            await seedCustomer(tx, id);
            tx.afterCommit(() => events.push(`published:${id}`));
            // The last unit runs after the others: they are done, yet nothing is committed.
            if (id === 'c') seenByLast = committedCustomers();
            return id;
          })
          .then((value) => {
            events.push(`answered:${value}`);
            return value;
          }),
      ),
    );
    expect(results).toEqual(ids);
    expect(seenByLast).toEqual([]);
    expect(committedCustomers()).toEqual(ids);
    // Each caller hears of its own commit after its post-commit callbacks ran.
    for (const id of ids) {
      expect(events.indexOf(`published:${id}`)).toBeLessThan(events.indexOf(`answered:${id}`));
    }
  });

  it('rolls back only the failing unit of a group', async () => {
    const { store, committedCustomers } = open();
    const published: string[] = [];
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((id) =>
        store.transaction(async (tx) => {
          await seedCustomer(tx, id);
          tx.afterCommit(() => published.push(id));
          if (id === 'b') throw new Error('unit b failed');
          return id;
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(outcomes[1]).toMatchObject({ reason: new Error('unit b failed') });
    expect(committedCustomers()).toEqual(['a', 'c']);
    expect(published).toEqual(['a', 'c']);
  });

  it('keeps nested transactions (savepoints) of a grouped unit working', async () => {
    const { store, committedCustomers } = open();
    await Promise.all([
      store.transaction((tx) => seedCustomer(tx, 'a')),
      store.transaction(async (tx) => {
        await seedCustomer(tx, 'b');
        await expect(
          tx.transaction(async (inner) => {
            await seedCustomer(inner, 'b-inner');
            throw new Error('inner failed');
          }),
        ).rejects.toThrow('inner failed');
        await tx.transaction((inner) => seedCustomer(inner, 'b-kept'));
      }),
    ]);
    expect(committedCustomers()).toEqual(['a', 'b', 'b-kept']);
  });

  it('answers a duplicate key in one unit without failing the others', async () => {
    const { store, committedCustomers } = open();
    const outcomes = await Promise.allSettled([
      store.transaction((tx) => seedCustomer(tx, 'a')),
      store.transaction((tx) => seedCustomer(tx, 'a')),
      store.transaction((tx) => seedCustomer(tx, 'b')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(committedCustomers()).toEqual(['a', 'b']);
  });
});
