import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Runs tasks one at a time, in arrival order. better-sqlite3 is synchronous and has one
 * connection, so an open transaction must not interleave with other statements: every store
 * operation and every transaction goes through one lock.
 */
export class SerialLock {
  #tail: Promise<unknown> = Promise.resolve();
  /** Marks the async context of the running task, to catch a task waiting on its own lock. */
  readonly #holder = new AsyncLocalStorage<{ lock: SerialLock; running: boolean }>();

  /**
   * Runs `task` once every earlier task has settled.
   * @throws {Error} when called from inside a task of the same lock, which would wait forever.
   */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    const reentry = this.reentryError();
    if (reentry) return Promise.reject(reentry);
    const result = this.#tail.then(async () => {
      // Callbacks the task leaves behind inherit this context; once the task is over they are
      // free to use the lock again.
      const marker = { lock: this, running: true };
      try {
        return await this.#holder.run(marker, task);
      } finally {
        marker.running = false;
      }
    });
    // The next task waits for this one to settle, whatever the outcome.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /**
   * The error to answer when the caller runs inside a task of this lock (waiting for the lock
   * there would wait forever); undefined otherwise.
   */
  reentryError(): Error | undefined {
    const holder = this.#holder.getStore();
    if (holder?.lock !== this || !holder.running) return undefined;
    return new Error(
      'Store used from inside its own transaction: use the `tx` repositories passed to transaction()',
    );
  }
}
