import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/test-app';
import { openSqlite, SQLITE_PAGE_SIZE } from './connection';

describe('openSqlite', () => {
  it('opens in WAL mode with foreign keys, NORMAL sync and temporary storage in memory', () => {
    const sqlite = openSqlite(join(tempDir(), 'connection.db'));
    try {
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(1);
      // 2 = MEMORY: the savepoint journal of a group commit never goes to a temporary file.
      expect(sqlite.pragma('temp_store', { simple: true })).toBe(2);
    } finally {
      sqlite.close();
    }
  });

  it('creates a new database with 2 KiB pages and keeps the page size of an existing one', () => {
    const dir = tempDir();
    const created = openSqlite(join(dir, 'new.db'));
    try {
      created.exec('create table t (id integer primary key, body text)');
      expect(SQLITE_PAGE_SIZE).toBe(2048);
      expect(created.pragma('page_size', { simple: true })).toBe(2048);
    } finally {
      created.close();
    }
    // A database made by an earlier version (SQLite's default 4 KiB pages, already in WAL mode).
    const olderPath = join(dir, 'older.db');
    const older = new Database(olderPath);
    older.pragma('journal_mode = WAL');
    older.exec(
      "create table t (id integer primary key, body text); insert into t (body) values ('kept')",
    );
    older.close();
    const reopened = openSqlite(olderPath);
    try {
      expect(reopened.pragma('page_size', { simple: true })).toBe(4096);
      expect(reopened.pragma('journal_mode', { simple: true })).toBe('wal');
      reopened.prepare("insert into t (body) values ('added')").run();
      expect(reopened.prepare('select body from t order by id').pluck().all()).toEqual([
        'kept',
        'added',
      ]);
    } finally {
      reopened.close();
    }
  });

  it('rolls a savepoint back from the in-memory journal past its former 64 KiB spill size', () => {
    const sqlite = openSqlite(join(tempDir(), 'savepoints.db'));
    try {
      sqlite.exec('create table t (id integer primary key, body text)');
      const insert = sqlite.prepare('insert into t (body) values (?)');
      const body = 'x'.repeat(3_000);
      sqlite.exec('begin');
      for (let row = 0; row < 100; row += 1) insert.run(body);
      sqlite.exec('savepoint unit');
      // Rewrites every page the transaction wrote so far: ~75 pages (300 KiB) of journal.
      sqlite.exec(`update t set body = 'y'`);
      for (let row = 0; row < 100; row += 1) insert.run(body);
      sqlite.exec('rollback to unit');
      sqlite.exec('release unit');
      sqlite.exec('commit');
      const rows = sqlite
        .prepare('select count(*) as n, min(body) = max(body) as same from t')
        .get();
      expect(rows).toEqual({ n: 100, same: 1 });
      const first = sqlite.prepare('select body from t limit 1').pluck().get();
      expect(first).toBe(body);
    } finally {
      sqlite.close();
    }
  });
});
