import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { findUp, moduleDir } from '../../find-up';
import * as schema from './schema';

/** The drizzle database over the SQLite schema, and the connection under it (`$client`). */
export type SqliteOrm = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * The page size of a database this server creates, in bytes (SQLite's default is 4,096). Each
 * commit writes every page it changed in full to the WAL, and most of those pages are index
 * leaves in which one entry changed: half the page, half the bytes written, checksummed and
 * copied back by the checkpoint. Measured end to end: 147 → 103 KB written per delivered message
 * and 13 % less server CPU per message; 1,024 wrote less still but cost more CPU (deeper trees,
 * event rows spilling to overflow pages). An existing database keeps the page size it was created
 * with (changing it takes a `VACUUM`: docs/operators.md, "Operating notes").
 */
export const SQLITE_PAGE_SIZE = 2048;

/**
 * Opens (creating it and its directory when missing) the SQLite database at `path`, in WAL mode
 * with foreign keys enforced, a busy timeout so that a CLI and a server can share the file, and
 * temporary storage (the savepoint journal among it) in memory. A new database gets pages of
 * {@link SQLITE_PAGE_SIZE} bytes.
 */
export function openSqlite(path: string, busyTimeoutMs = 5000): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  // Only takes effect on a database with no pages yet, and must come before WAL mode is set.
  sqlite.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  // Also only on a database with no tables yet: retention's pruning then gives freed pages back
  // to the file system in small steps (`incremental_vacuum`); an older database reuses its freed
  // pages but never shrinks until a one-time VACUUM (docs/operations.md, "Reclaiming space").
  sqlite.pragma('auto_vacuum = INCREMENTAL');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  // WAL + NORMAL is durable across process crashes; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  // The savepoint journal in memory: every unit of a group commit is a savepoint, and once a
  // group's journal passed 64 KiB SQLite moved it to a temporary file (open, unlink, a pwrite
  // per page): 6 % of the server's CPU end to end. It only serves rolling a savepoint back (the
  // WAL is what survives a crash), and it holds the pages one group changes. Temporary tables
  // and sort spills live in memory too; no query here sorts more than a page of rows.
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}

/** Wraps a SQLite connection in drizzle. */
export function createOrm(sqlite: Database.Database): SqliteOrm {
  return drizzle(sqlite, { schema });
}

/**
 * The folder of the drizzle-kit migrations, found by walking up from this module: it is
 * `packages/server/drizzle`, reached from `src/store/sqlite/` under tsx and from `dist/` once
 * built.
 */
export function findMigrationsFolder(start: string = moduleDir(import.meta.url)): string {
  return dirname(dirname(findUp(join('drizzle', 'meta', '_journal.json'), start)));
}

/** Applies every pending migration. */
export function migrateSqlite(orm: SqliteOrm, migrationsFolder = findMigrationsFolder()): void {
  migrate(orm, { migrationsFolder });
}
