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
