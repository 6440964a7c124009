import { AsyncLocalStorage } from 'node:async_hooks';

/** The async context of a running task, to catch a task waiting on its own lock. */
interface Holder {
  lock: SerialLock;
  running: boolean;
}

/**
 * Whether locks detect re-entry unless told otherwise: everywhere but in production. Detection
 * needs an AsyncLocalStorage, which on Node.js 20 installs promise hooks that tax every promise
 * of the process; re-entry is a programming error that the test suites catch.
 */
const DETECT_REENTRY_BY_DEFAULT = process.env.NODE_ENV !== 'production';

/**
 * Runs tasks one at a time, in arrival order. better-sqlite3 is synchronous and has one
 * connection, so an open transaction must not interleave with other statements: every store
 * operation and every transaction goes through one lock.
 */
export class SerialLock {
  #tail: Promise<unknown> = Promise.resolve();
  /** Marks the async context of the running task; undefined when re-entry is not detected. */
  readonly #holder: AsyncLocalStorage<Holder> | undefined;

  /**
   * A lock; `detectReentry` (default: unless `NODE_ENV` is `production`) makes a task that
   * waits for its own lock fail at once instead of waiting forever.
   */
  constructor(options: { detectReentry?: boolean } = {}) {
    this.#holder =
      (options.detectReentry ?? DETECT_REENTRY_BY_DEFAULT)
        ? new AsyncLocalStorage<Holder>()
        : undefined;
  }

  /**
   * Runs `task` once every earlier task has settled.
   * @throws {Error} when called from inside a task of the same lock, which would wait forever
   * (detected only when the lock detects re-entry).
   */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    const reentry = this.reentryError();
    if (reentry) return Promise.reject(reentry);
    return this.enqueue(task);
  }

  /**
   * Runs `task` once every earlier task has settled, without the re-entry check: for the lock's
   * owner to queue follow-up work from inside a task, which never waits for that work.
   */
  enqueue<T>(task: () => T | Promise<T>): Promise<T> {
    const holder = this.#holder;
    const result = this.#tail.then(
      holder
        ? async () => {
            // Callbacks the task leaves behind inherit this context; once the task is over they
            // are free to use the lock again.
            const marker = { lock: this, running: true };
            try {
              return await holder.run(marker, task);
            } finally {
              marker.running = false;
            }
          }
        : task,
    );
    // The next task waits for this one to settle, whatever the outcome.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /**
   * The error to answer when the caller runs inside a task of this lock (waiting for the lock
   * there would wait forever); undefined otherwise, and always when re-entry is not detected.
   */
  reentryError(): Error | undefined {
    const holder = this.#holder?.getStore();
    if (holder?.lock !== this || !holder.running) return undefined;
    return new Error(
      'Store used from inside its own transaction: use the `tx` repositories passed to transaction()',
    );
  }
}
