import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/test-app';
import { describeStoreConformance } from './store-conformance';

describeStoreConformance('SQLite', async () => openSqliteStore(join(tempDir(), 'store.db')));

describeStoreConformance('SQLite in memory', async () => openSqliteStore(':memory:'));
