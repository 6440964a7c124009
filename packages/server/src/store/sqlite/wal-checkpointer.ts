import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code, plain CommonJS (it runs from a string, so it needs no build step): its own
 * connection to the database runs a PASSIVE checkpoint every interval. A PASSIVE checkpoint never
 * blocks the writer; it copies what no reader still needs from the WAL back into the database
 * file, and the WAL is reused from its start once everything was copied. Under commits that never
 * pause, that never happens by itself (each checkpoint is behind by the commits made while it
 * ran), so past `restartFrames` it tells the main thread, which holds its commits back while a
 * RESTART checkpoint copies the rest (see {@link WalCheckpointerOptions.onBehind}).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
let timer;
const tick = () => {
  try {
    const { log } = db.pragma('wal_checkpoint(PASSIVE)')[0];
    if (log >= workerData.restartFrames) parentPort.postMessage({ behind: true });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'catch-up') {
    try {
      // RESTART also waits for readers of another process to leave the WAL, so that the next
      // commit starts it again from the beginning; briefly, as the commits wait meanwhile.
      db.pragma('busy_timeout = ' + workerData.catchUpWaitMs);
      db.pragma('wal_checkpoint(RESTART)');
    } catch {
      // The next tick reports what fails; a WAL still behind asks again.
    } finally {
      db.pragma('busy_timeout = 5000');
    }
    parentPort.postMessage({ caughtUp: true });
    return;
  }
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

/** Longest a catch-up waits for another process's readers to leave the WAL. */
const CATCH_UP_WAIT_MS = 100;

/** A running background checkpointer. */
export interface WalCheckpointer {
  /** Stops the worker and closes its connection. */
  stop(): Promise<void>;
}

/**
 * Runs one checkpoint on the worker and settles when it is done: called while nothing commits,
 * it copies the whole WAL, so the next commit starts it again from the beginning.
 */
type CatchUp = () => Promise<void>;

/** Options of {@link startWalCheckpointer}. */
export interface WalCheckpointerOptions {
  /** How often to checkpoint, in milliseconds. */
  intervalMs: number;
  /** WAL frames (pages) past which `onBehind` is called. */
  restartFrames: number;
  /**
   * Called when a checkpoint found the WAL at `restartFrames` or more: the committing side runs
   * `catchUp` while it holds its commits back (once at a time; calls meanwhile are dropped).
   */
  onBehind: (catchUp: CatchUp) => Promise<unknown>;
  /** Called when the worker fails or exits before `stop`: the caller checkpoints itself again. */
  onFailure: (error: Error) => void;
}

/**
 * Runs the WAL checkpoints of the SQLite file at `path` on a worker thread with its own
 * connection, so the connection that commits (on the event loop) no longer copies pages back and
 * fsyncs the database file every 1,000 pages. The caller turns its own automatic checkpoints off
 * (`wal_autocheckpoint = 0`) while this runs, and on again if it fails.
 * @example const checkpointer = startWalCheckpointer('/data/switchboard.db', { intervalMs: 200, onFailure });
 */
export function startWalCheckpointer(
  path: string,
  options: WalCheckpointerOptions,
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path,
      driver,
      intervalMs: options.intervalMs,
      restartFrames: options.restartFrames,
      catchUpWaitMs: CATCH_UP_WAIT_MS,
    },
  });
  worker.unref();
  let stopping = false;
  let failed = false;
  /** The catch-up under way: the committing side holds its commits until it settles. */
  let caughtUp: (() => void) | undefined;
  const release = () => {
    const resolve = caughtUp;
    caughtUp = undefined;
    resolve?.();
  };
  const fail = (error: Error) => {
    if (stopping || failed) return;
    failed = true;
    // A worker that died during a catch-up never answers it: the commits go on without it.
    release();
    options.onFailure(error);
  };
  let catchingUp = false;
  const catchUp: CatchUp = () =>
    new Promise<void>((resolve) => {
      if (stopping || failed) {
        resolve();
        return;
      }
      caughtUp = resolve;
      worker.postMessage('catch-up');
    });
  worker.on('message', (message: { error?: string; behind?: boolean; caughtUp?: boolean }) => {
    if (message.error) fail(new Error(`background checkpoint failed: ${message.error}`));
    if (message.caughtUp) release();
    if (message.behind && !catchingUp && !stopping && !failed) {
      catchingUp = true;
      void options
        .onBehind(catchUp)
        .catch(() => undefined)
        .finally(() => {
          catchingUp = false;
        });
    }
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the checkpoint worker exited (${code})`)));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (stopping) {
          resolve();
          return;
        }
        stopping = true;
        // A catch-up in progress is not waited for: the store is closing.
        release();
        if (failed) {
          void worker.terminate().then(() => resolve());
          return;
        }
        const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 2_000);
        worker.on('message', (message: { stopped?: boolean }) => {
          if (!message.stopped) return;
          clearTimeout(timer);
          void worker.terminate().then(() => resolve());
        });
        worker.postMessage('stop');
      }),
  };
}
