import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code, plain CommonJS (it runs from a string, so it needs no build step): its own
 * connection to the database runs a PASSIVE checkpoint every interval. A PASSIVE checkpoint never
 * blocks the writer; it copies what no reader still needs from the WAL back into the database
 * file, and the WAL is reused from its start once everything was copied.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
let timer;
const tick = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

/** A running background checkpointer. */
export interface WalCheckpointer {
  /** Stops the worker and closes its connection. */
  stop(): Promise<void>;
}

/** Options of {@link startWalCheckpointer}. */
export interface WalCheckpointerOptions {
  /** How often to checkpoint, in milliseconds. */
  intervalMs: number;
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
    workerData: { path, driver, intervalMs: options.intervalMs },
  });
  worker.unref();
  let stopping = false;
  let failed = false;
  const fail = (error: Error) => {
    if (stopping || failed) return;
    failed = true;
    options.onFailure(error);
  };
  worker.on('message', (message: { error?: string }) => {
    if (message.error) fail(new Error(`background checkpoint failed: ${message.error}`));
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
