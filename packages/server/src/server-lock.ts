import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** A server could not start; the message is one line that says what to do. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** The exclusive claim of one server process on its SQLite file. */
export interface ServerLock {
  /** The file naming the holder's pid, next to the database (there while it runs). */
  readonly path: string;
  /** Gives the claim up (at shutdown). */
  release(): void;
}

/** True when SQLite refused a lock because another connection holds it. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** The pid a holder wrote in `path`, when it did (it may be writing it right now). */
function holderPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the operating system's lock on `file` (a small SQLite database): SQLite's exclusive lock
 * is an `fcntl` lock, which the kernel drops when its process dies, `kill -9` included, and which
 * two processes can never both hold. Answers the open connection holding it, or undefined when
 * another process holds it.
 */
function takeOsLock(file: string): Database.Database | undefined {
  // timeout 0: a held lock is a refusal now, not a wait.
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('journal_mode = MEMORY');
    // Once taken, the lock is kept until the connection closes (or the process dies).
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS server_lock (taken_at INTEGER NOT NULL)');
    db.prepare('INSERT INTO server_lock (taken_at) VALUES (?)').run(Date.now());
    db.exec('COMMIT');
    return db;
  } catch (error) {
    db.close();
    if (isBusy(error)) return undefined;
    throw error;
  }
}

/**
 * Claims the SQLite file at `databasePath` for this process, so a second server on it is refused
 * at start instead of running beside the first (two processes would each run the workers,
 * providers and recovery against one file). The claim is an operating-system lock on
 * `<database>.lock.sqlite` (see {@link takeOsLock}): it dies with its process, so a server killed
 * with `kill -9` never leaves a lock to take over, and of two servers started at the same instant
 * exactly one gets it. `<database>.lock` names the holder's pid while it runs, for operators and
 * for the refusal. The CLI never takes it: operators manage a running server's database with it.
 * @throws {StartupError} when another process holds the lock.
 */
export function claimServerLock(databasePath: string): ServerLock {
  const path = `${databasePath}.lock`;
  // A first start (`./data` not there yet): the lock comes before the database creates its folder.
  mkdirSync(dirname(databasePath), { recursive: true });
  const held = takeOsLock(`${path}.sqlite`);
  if (!held) {
    const pid = holderPid(path);
    throw new StartupError(
      `another Switchboard server${pid === undefined ? '' : ` (pid ${pid})`} is using ${databasePath}: stop it, or set DATABASE_URL to another file (one server per SQLite database)`,
    );
  }
  // The holder names itself only once it holds the lock: a pid left by a killed server is
  // simply written over.
  writeFileSync(path, `${process.pid}\n`, { mode: 0o600 });
  return {
    path,
    release: () => {
      try {
        if (holderPid(path) === process.pid) unlinkSync(path);
      } catch {
        // Already gone.
      }
      // The lock file itself stays: removing it would let a server that opened it just before
      // lock a file no longer on disk while a third locks a new one.
      if (held.open) held.close();
    },
  };
}
