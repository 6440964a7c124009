import type { Worker } from '../workers';
import { PeriodicTask } from './periodic-task';

/** A logger for the failures of a periodic worker's runs. */
export interface PeriodicWorkerLogger {
  /** Logs at error level. */
  error(details: Record<string, unknown>, message: string): void;
}

/** What a {@link PeriodicWorker} runs, how often, and what it logs when a run fails. */
export interface PeriodicWorkerOptions {
  /** Name for the logs. */
  name: string;
  /** Time between two runs. */
  intervalMs: number;
  /** One run of the job. */
  run: () => Promise<unknown>;
  /** The log message of a failed run. */
  failure: string;
}

/**
 * A background worker that runs one job at start, every `intervalMs` and on demand (`runNow`),
 * logging the runs that fail; `stop` waits for a run in progress.
 */
export class PeriodicWorker implements Worker {
  /** Name for the logs. */
  readonly name: string;
  readonly #task: PeriodicTask;
  #logger: PeriodicWorkerLogger = { error: () => undefined };

  /** A worker for `options.run`; call `start` to begin. */
  constructor(options: PeriodicWorkerOptions) {
    this.name = options.name;
    this.#task = new PeriodicTask({
      name: options.name,
      intervalMs: options.intervalMs,
      runAtStart: true,
      run: async () => {
        await options.run();
      },
      onError: (error) => this.#logger.error({ err: error }, options.failure),
    });
  }

  /** Starts the rhythm; `logger` receives the failures of runs. */
  start(logger: PeriodicWorkerLogger): void {
    this.#logger = logger;
    this.#task.start();
  }

  /** Runs now; resolves when the run is over. */
  runNow(): Promise<void> {
    return this.#task.runNow();
  }

  /** Stops and waits for a run in progress. */
  stop(): Promise<void> {
    return this.#task.stop();
  }
}
