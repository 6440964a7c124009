import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createOrm,
  findMigrationsFolder,
  migrateSqlite,
  openSqlite,
} from '../../src/store/sqlite/connection';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/test-app';

interface Journal {
  entries: Array<{ idx: number; when: number; tag: string }>;
}

const folder = findMigrationsFolder();
const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;

function indexNames(path: string): string[] {
  const sqlite = openSqlite(path);
  try {
    return (
      sqlite.prepare("select name from sqlite_master where type = 'index'").all() as Array<{
        name: string;
      }>
    ).map((row) => row.name);
  } finally {
    sqlite.close();
  }
}

describe('SQLite migrations', () => {
  it('are append-only: the initial migration first, each later one newer than the last', () => {
    expect(journal.entries[0]?.tag).toBe('0000_initial');
    for (const [position, entry] of journal.entries.entries()) {
      expect(entry.idx).toBe(position);
      expect(entry.tag.startsWith(String(position).padStart(4, '0'))).toBe(true);
      const previous = journal.entries[position - 1];
      if (previous) expect(entry.when).toBeGreaterThan(previous.when);
    }
  });

  it('upgrade a database made by the first release without losing its rows', async () => {
    // The database as the first release left it: only 0000_initial applied, with a customer.
    const dir = tempDir();
    const firstRelease = join(dir, 'first-release-migrations');
    cpSync(folder, firstRelease, { recursive: true });
    const firstJournal: Journal = { ...journal, entries: journal.entries.slice(0, 1) };
    writeFileSync(join(firstRelease, 'meta', '_journal.json'), JSON.stringify(firstJournal));
    const path = join(dir, 'upgrade.db');
    const sqlite = openSqlite(path);
    migrateSqlite(createOrm(sqlite), firstRelease);
    sqlite
      .prepare('insert into customers (id, name, settings, created_at) values (?, ?, ?, ?)')
      .run('cus_upgrade', 'Upgrade Co', '{}', Date.now());
    sqlite.close();
    expect(indexNames(path)).not.toContain('webhook_deliveries_pending_target_idx');

    const store = openSqliteStore(path);
    try {
      expect(await store.customers.findById('cus_upgrade')).toMatchObject({ name: 'Upgrade Co' });
    } finally {
      await store.close();
    }
    expect(indexNames(path)).toContain('webhook_deliveries_pending_target_idx');
  });
});
