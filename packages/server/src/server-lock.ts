import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** A server could not start; the message is one line that says what to do. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** The exclusive claim of one server process on its SQLite file. */
export interface ServerLock {
  /** The lock file, next to the database. */
  readonly path: string;
  /** Gives the claim up (at shutdown). */
  release(): void;
}

/** True when a process with this id is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `<database>.lock` for this process, so a second server on the same SQLite file is
 * refused at start instead of running beside the first (two processes would each run the
 * workers, providers and recovery against one file). A lock left by a process that died
 * (`kill -9`) is taken over. The CLI never takes it: operators manage a running server's
 * database with it.
 * @throws {StartupError} when a live process holds the lock.
 */
export function claimServerLock(databasePath: string): ServerLock {
  const path = `${databasePath}.lock`;
  // A first start (`./data` not there yet): the lock comes before the database creates its folder.
  mkdirSync(dirname(databasePath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return {
        path,
        release: () => {
          try {
            if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
        throw new StartupError(
          `another Switchboard server (pid ${holder}) is using ${databasePath}: stop it, or set DATABASE_URL to another file (one server per SQLite database)`,
        );
      }
      // Left by a process that is gone: take it over.
      unlinkSync(path);
    }
  }
  throw new StartupError(`could not claim ${path}: remove it if no server is running`);
}
