import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

/** What a backup wrote. */
export interface SqliteBackupResult {
  /** The copy. */
  path: string;
  /** Its size. */
  bytes: number;
  /** Messages it holds. */
  messages: number;
}

/**
 * The answer of `PRAGMA integrity_check` on the database at `path`: `ok`, or what is wrong.
 * @example checkIntegrity('./backup.db') // 'ok'
 */
export function checkIntegrity(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/**
 * Copies the SQLite database at `source` to `target` while a server may be writing to it:
 * `VACUUM INTO` on a connection of its own reads one snapshot (a WAL read transaction, which
 * never blocks the server's writes) and writes it out compacted, so the copy holds exactly what
 * was committed when it began. A file copy would tear: the database file and its WAL change
 * under it. The copy is checked with `integrity_check` before this answers.
 * @throws {Error} when `target` exists, or the copy fails its check.
 */
export function backupSqlite(
  source: string,
  target: string,
  busyTimeoutMs = 5000,
): SqliteBackupResult {
  if (existsSync(target)) throw new Error(`${target} exists: choose a new file for the backup`);
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  const integrity = checkIntegrity(target);
  if (integrity !== 'ok') {
    rmSync(target, { force: true });
    throw new Error(`the backup failed its integrity check: ${integrity}`);
  }
  const copy = new Database(target, { readonly: true });
  try {
    const row = copy.prepare('SELECT count(*) AS n FROM messages').get() as { n: number };
    return { path: target, bytes: statSync(target).size, messages: row.n };
  } finally {
    copy.close();
  }
}

/**
 * Puts the backup at `backup` in place of the database at `target` (no server may hold it: the
 * caller holds the server lock). The backup is checked first; the target's old WAL and shared
 * memory files go with it (a stale WAL replayed over the restored file would corrupt it); the
 * copy is written beside the target and renamed over it, so a failure leaves the old one whole.
 * @throws {Error} when the backup fails its integrity check.
 */
export function restoreSqlite(backup: string, target: string): void {
  const integrity = checkIntegrity(backup);
  if (integrity !== 'ok') throw new Error(`${backup} fails its integrity check: ${integrity}`);
  const staging = `${target}.restoring`;
  copyFileSync(backup, staging);
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(staging, target);
}
