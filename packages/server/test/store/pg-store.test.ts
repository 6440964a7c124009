import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findPgMigrationsFolder } from '../../src/store/postgres/pg-connection';
import { openPgStore } from '../../src/store/postgres/pg-store';
import type { Store } from '../../src/store/store';
import { createTestDatabase, TEST_ENCRYPTION_KEY } from '../support/postgres-database';
import { describeStoreConformance } from './store-conformance';
import { describeQueueConformance } from './store-conformance-queues';

/** A store on a fresh database; closing it drops the database. */
async function openFreshPgStore(): Promise<Store> {
  const database = await createTestDatabase();
  const store = await openPgStore(database.url, { encryptionKey: TEST_ENCRYPTION_KEY });
  const close = store.close.bind(store);
  return Object.assign(store, {
    close: async () => {
      await close();
      await database.drop();
    },
  });
}

describeStoreConformance('PostgreSQL', openFreshPgStore);

describeQueueConformance('PostgreSQL', openFreshPgStore);

describe('PostgreSQL migrations', () => {
  it('are applied once when several processes start on a new database together', async () => {
    const database = await createTestDatabase({ unmigrated: true });
    onTestFinished(() => database.drop());
    const stores = await Promise.all(
      Array.from({ length: 4 }, () =>
        openPgStore(database.url, { encryptionKey: TEST_ENCRYPTION_KEY }),
      ),
    );
    for (const store of stores) await store.close();
    const journal = JSON.parse(
      readFileSync(join(findPgMigrationsFolder(), 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query('select hash from drizzle.__drizzle_migrations');
      expect(applied.rowCount).toBe(journal.entries.length);
      const checks = await client.query(
        "select 1 from server_secrets where name = 'encryption-key-check'",
      );
      expect(checks.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('refuses to start without a key, or with another key than the database’s', async () => {
    const database = await createTestDatabase();
    onTestFinished(() => database.drop());
    await expect(openPgStore(database.url, {})).rejects.toThrow(/SWITCHBOARD_ENCRYPTION_KEY/);
    const first = await openPgStore(database.url, { encryptionKey: TEST_ENCRYPTION_KEY });
    await first.close();
    const other = Buffer.alloc(32, 9).toString('base64');
    await expect(openPgStore(database.url, { encryptionKey: other })).rejects.toThrow();
  });
});
