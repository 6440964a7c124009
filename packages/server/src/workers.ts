/** A background task that runs beside the HTTP server (scheduler, webhook dispatcher…). */
export interface Worker {
  /** Name for the logs. */
  readonly name: string;
  /** Stops taking new work and resolves once the work in progress has finished. */
  stop(): Promise<void>;
}

/**
 * The app's background workers. Shutdown stops them, newest first, after the server stopped
 * accepting requests and before the database closes.
 */
export class Workers {
  readonly #workers: Worker[] = [];

  /** Registers a started worker so that shutdown stops it. */
  add(worker: Worker): void {
    this.#workers.push(worker);
  }

  /** Stops every worker, newest first; resolves with the errors of those that failed. */
  async stopAll(): Promise<unknown[]> {
    const failures: unknown[] = [];
    for (const worker of [...this.#workers].reverse()) {
      try {
        await worker.stop();
      } catch (error) {
        failures.push(error);
      }
    }
    this.#workers.length = 0;
    return failures;
  }
}
