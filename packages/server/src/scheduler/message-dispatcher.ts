import type { Clock } from '../clock';
import type { MessageDelivery } from '../domain/messages/message-delivery';
import type { Store } from '../store/store';
import type { Worker } from '../workers';
import { PeriodicTask } from './periodic-task';

/** How long after its last change an unsettled message is still reconciled at start-up: 24 h. */
const RECONCILE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Messages looked at per scan. */
const BATCH = 200;

/** A logger for the worker's own failures. */
export interface DispatcherLogger {
  /** Logs at error level. */
  error(details: Record<string, unknown>, message: string): void;
}

/** Dependencies of {@link MessageDispatcher}. */
export interface MessageDispatcherOptions {
  /** The store. */
  store: Store;
  /** Hands messages to providers. */
  delivery: MessageDelivery;
  /** The time source. */
  clock: Clock;
  /** How many messages are handed to providers at once. */
  concurrency?: number;
  /** How often to look for queued messages nobody announced (another process, a lost nudge). */
  sweepIntervalMs?: number;
}

/**
 * The worker that drives queued messages through their provider. A send (or the scheduler, or a
 * retry) announces each queued message once it is committed; a periodic sweep picks up any that
 * were not announced. At start it resumes what a crash interrupted: messages left `pending`, and
 * provider updates missed while the server was down (asked of the providers). A message is
 * claimed with a conditional update, so two workers never send it twice.
 */
export class MessageDispatcher implements Worker {
  /** Name for the logs. */
  readonly name = 'message-dispatcher';
  readonly #options: MessageDispatcherOptions;
  readonly #concurrency: number;
  readonly #waiting = new Set<string>();
  readonly #running = new Map<string, Promise<void>>();
  readonly #sweep: PeriodicTask;
  #stopped = true;
  #logger: DispatcherLogger = { error: () => undefined };
  #recovery: Promise<void> = Promise.resolve();

  /** A dispatcher that does nothing until {@link start}. */
  constructor(options: MessageDispatcherOptions) {
    this.#options = options;
    this.#concurrency = Math.max(1, options.concurrency ?? 16);
    this.#sweep = new PeriodicTask({
      name: 'message-sweep',
      intervalMs: options.sweepIntervalMs ?? 5_000,
      run: () => this.#sweepQueued(),
      onError: (error) => this.#logger.error({ err: error }, 'queued message sweep failed'),
    });
  }

  /**
   * Starts taking queued messages, after recovering interrupted work in the background (a slow
   * provider must not hold up the server's start). `logger` receives the worker's failures.
   */
  start(logger: DispatcherLogger): void {
    this.#logger = logger;
    this.#stopped = false;
    this.#recovery = this.#recover()
      .then(() => this.#sweepQueued())
      .catch((error: unknown) => this.#logger.error({ err: error }, 'message recovery failed'))
      .finally(() => {
        if (!this.#stopped) this.#sweep.start();
      });
  }

  /** Resolves once start-up recovery is over. */
  recovered(): Promise<void> {
    return this.#recovery;
  }

  /** Announces a queued message: it is handed to its provider as soon as a slot is free. */
  enqueue(messageId: string): void {
    if (this.#stopped || this.#running.has(messageId)) return;
    this.#waiting.add(messageId);
    this.#pump();
  }

  /** Stops taking messages and waits for those being handed to providers. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#waiting.clear();
    await this.#recovery;
    await this.#sweep.stop();
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  #pump(): void {
    for (const id of this.#waiting) {
      if (this.#running.size >= this.#concurrency) return;
      this.#waiting.delete(id);
      if (this.#running.has(id)) continue;
      this.#run(id, () => this.#options.delivery.deliverQueued(id));
    }
  }

  #run(id: string, work: () => Promise<void>): void {
    const running = work()
      .catch((error: unknown) =>
        this.#logger.error({ err: error, messageId: id }, 'message delivery failed'),
      )
      .finally(() => {
        this.#running.delete(id);
        this.#pump();
      });
    this.#running.set(id, running);
  }

  async #sweepQueued(): Promise<void> {
    const ids = await this.#options.store.messages.idsInStatus(['queued'], BATCH);
    for (const id of ids) this.enqueue(id);
  }

  /**
   * Start-up recovery (one server per database): a message still `pending` was being handed to a
   * provider when the process died; a recent `sent` or `delivered` one may have missed updates.
   */
  async #recover(): Promise<void> {
    const { store, delivery, clock } = this.#options;
    const pending = await store.messages.idsInStatus(['pending'], 10_000);
    const since = new Date(clock.now() - RECONCILE_WINDOW_MS);
    const unsettled = await store.messages.unsettledSince(['sent', 'delivered'], since, 10_000);
    const work = [
      ...pending.map((id) => () => delivery.resumePending(id)),
      ...unsettled.map((id) => () => delivery.reconcile(id)),
    ];
    // A few at a time: recovery must not flood a provider that is itself just starting.
    let next = 0;
    const lanes = Array.from({ length: this.#concurrency }, async () => {
      while (next < work.length && !this.#stopped) {
        // Sync SQLite and an in-process provider can settle a whole task in microtasks: yield to
        // the event loop between tasks, or a large recovery keeps the server from answering (and
        // even from listening) until it is over.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const task = work[next++];
        await task?.().catch((error: unknown) =>
          this.#logger.error({ err: error }, 'message recovery failed'),
        );
      }
    });
    await Promise.all(lanes);
  }
}
