import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { describeStoreConformance } from './store-conformance';
import { describeQueueConformance } from './store-conformance-queues';

describeStoreConformance('SQLite', async () => openSqliteStore(join(tempDir(), 'store.db')));

describeStoreConformance('SQLite in memory', async () => openSqliteStore(':memory:'));

describeQueueConformance('SQLite', async () => openSqliteStore(join(tempDir(), 'store.db')));

describeStoreConformance('SQLite with background checkpoints', async () =>
  openSqliteStore(join(tempDir(), 'store.db'), { backgroundCheckpointMs: 20 }),
);

describe('WAL checkpoints on a worker thread', () => {
  /**
   * What the database file holds without its WAL: only what a checkpoint copied back. A copy taken
   * while a checkpoint writes the file may be torn; that counts as nothing yet.
   */
  function checkpointedKeys(path: string): string[] {
    const copy = `${path}.copy`;
    copyFileSync(path, copy);
    let db: Database.Database | undefined;
    try {
      db = new Database(copy, { readonly: true });
      const table = db
        .prepare("select name from sqlite_master where name = 'provider_state'")
        .get();
      if (!table) return [];
      return (db.prepare('select key from provider_state').all() as { key: string }[]).map(
        (row) => row.key,
      );
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CORRUPT') return [];
      throw error;
    } finally {
      db?.close();
      rmSync(copy, { force: true });
    }
  }

  async function storeWithOneKey(backgroundCheckpointMs: number, walRestartFrames?: number) {
    const path = join(tempDir(), 'store.db');
    const store = openSqliteStore(path, {
      backgroundCheckpointMs,
      ...(walRestartFrames === undefined ? {} : { walRestartFrames }),
    });
    await store.instances.insert({
      id: 'i1',
      name: 'i1',
      provider: 'simulator',
      channels: ['sms'],
      config: {},
      enabled: true,
      ingressToken: 'ingr_x',
      updatedAt: new Date(0),
      deletedAt: null,
      healthStatus: 'unknown',
      healthWarnings: [],
      healthCheckedAt: null,
      createdAt: new Date(0),
    });
    await store.providerState.set('i1', 'written', 'v');
    return { path, store };
  }

  it('copies commits back to the database file without the committing connection doing it', async () => {
    const { path, store } = await storeWithOneKey(20);
    await waitFor(() => (checkpointedKeys(path).includes('written') ? true : undefined), 3_000);
    await store.close();
    // The store is usable to the end and its file complete after closing.
    expect(checkpointedKeys(path)).toEqual(['written']);
  });

  it('reuses the WAL from its start under writes that never pause', async () => {
    const { path, store } = await storeWithOneKey(5, 200);
    const value = 'x'.repeat(4_000);
    // Back-to-back commits: a checkpoint running beside them never finds the WAL all copied. (The
    // event loop turns now and then, as it does between a server's requests.) Each commit adds at
    // least two 4 KB pages, so 12,000 of them write over 95 MB, however fast the machine is; 200
    // frames are about 800 KB.
    for (let written = 0; written < 12_000; written += 1) {
      if (written % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      await store.providerState.set('i1', `k${written % 100}`, `${value}${written}`);
    }
    const walBytes = statSync(`${path}-wal`).size;
    await store.close();
    expect(walBytes).toBeLessThan(32 * 1024 * 1024);
  }, 60_000);

  it('leaves the WAL to SQLite when turned off: a small write stays in the WAL until close', async () => {
    const { path, store } = await storeWithOneKey(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(checkpointedKeys(path)).toEqual([]);
    await store.close();
    expect(checkpointedKeys(path)).toEqual(['written']);
  });
});
