import type { MessageService } from '../domain/messages/message-service';
import type { Worker } from '../workers';
import { PeriodicTask } from './periodic-task';

/** A logger for the scheduler's failures. */
export interface SchedulerLogger {
  /** Logs at error level. */
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * The scheduler: every `SCHEDULER_INTERVAL_MS` (and once at start, for messages that fell due
 * while the server was down) it queues the scheduled messages that are due. Each is claimed with
 * a conditional update, so it is queued exactly once even when two schedulers race.
 */
export class MessageScheduler implements Worker {
  /** Name for the logs. */
  readonly name = 'message-scheduler';
  readonly #task: PeriodicTask;
  #logger: SchedulerLogger = { error: () => undefined };

  /** A scheduler over the message service, checking every `intervalMs`. */
  constructor(messages: MessageService, intervalMs: number) {
    this.#task = new PeriodicTask({
      name: this.name,
      intervalMs,
      runAtStart: true,
      run: async () => {
        await messages.queueDueMessages();
      },
      onError: (error) => this.#logger.error({ err: error }, 'scheduler run failed'),
    });
  }

  /** Starts checking; `logger` receives the failures of runs. */
  start(logger: SchedulerLogger): void {
    this.#logger = logger;
    this.#task.start();
  }

  /** Checks now; resolves when the due messages are queued. */
  runNow(): Promise<void> {
    return this.#task.runNow();
  }

  /** Stops checking and waits for a run in progress. */
  stop(): Promise<void> {
    return this.#task.stop();
  }
}
