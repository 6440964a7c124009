/** Options of {@link PeriodicTask}. */
export interface PeriodicTaskOptions {
  /** Name for the logs. */
  name: string;
  /** Milliseconds between the end of one run and the start of the next. */
  intervalMs: number;
  /** The work of one run. */
  run: () => Promise<void>;
  /** Called with the error of a run that failed; the task keeps its rhythm. */
  onError: (error: unknown) => void;
  /** Run once at start instead of waiting one interval first. */
  runAtStart?: boolean;
}

/**
 * Runs a task every `intervalMs`, never two runs at once. The timer is unref'd, so a pending run
 * never keeps a process alive; `stop` cancels the next run and waits for the current one.
 * @example const task = new PeriodicTask({ name: 'scheduler', intervalMs: 60_000, run, onError }).start();
 */
export class PeriodicTask {
  /** Name for the logs. */
  readonly name: string;
  readonly #options: PeriodicTaskOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;

  /** A task that does nothing until {@link start}. */
  constructor(options: PeriodicTaskOptions) {
    this.name = options.name;
    this.#options = options;
  }

  /** Starts the rhythm. */
  start(): this {
    if (!this.#stopped) return this;
    this.#stopped = false;
    if (this.#options.runAtStart) void this.runNow();
    else this.#schedule();
    return this;
  }

  /**
   * Runs the task now (or joins the run in progress) and then waits one interval for the next;
   * resolves when this run is over.
   */
  runNow(): Promise<void> {
    if (this.#running) return this.#running;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running = this.#options
      .run()
      .catch((error: unknown) => this.#options.onError(error))
      .finally(() => {
        this.#running = undefined;
        this.#schedule();
      });
    return this.#running;
  }

  /** Cancels the next run and waits for the one in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #schedule(): void {
    if (this.#stopped || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.runNow();
    }, this.#options.intervalMs);
    this.#timer.unref();
  }
}
