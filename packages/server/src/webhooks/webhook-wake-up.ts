import { randomUUID } from 'node:crypto';
import type { ClusterChannel } from '../store/cluster-channel';
import type { Worker } from '../workers';

/** Least time between two notes of one process: a burst of commits is one note. */
const NOTE_EVERY_MS = 100;

/**
 * Wakes the other processes' webhook dispatchers when this process committed deliveries it does
 * not make itself (its dispatcher stopped or not started, during a shutdown for instance, or its
 * queue full): it publishes a note on the cluster's channel, at most one per 100 ms, and every
 * other process looks for due attempts at once instead of on its fallback poll. A process that
 * makes its deliveries itself publishes nothing, so a busy cluster pays nothing for it. A note
 * lost (the channel down) leaves the deliveries to the fallback poll, as before.
 */
export class WebhookWakeUp implements Worker {
  /** Name for the logs. */
  readonly name = 'webhook-wake-up';
  readonly #origin = randomUUID();
  #lastNoteAt = Number.NEGATIVE_INFINITY;
  /** The note held back by {@link NOTE_EVERY_MS}, sent at the end of the window. */
  #trailing: NodeJS.Timeout | undefined;

  /** Wakes through `channel`; `wake` looks for due attempts in this process. */
  constructor(
    private readonly channel: ClusterChannel,
    private readonly wake: () => void,
  ) {}

  /** Starts listening to the other processes' notes. */
  start(): Promise<void> {
    return this.channel.listen((payload) => {
      if (payload !== this.#origin) this.wake();
    });
  }

  /** Tells the other processes that deliveries wait in the database for whoever makes them. */
  announce(): void {
    if (this.#trailing) return;
    const wait = this.#lastNoteAt + NOTE_EVERY_MS - performance.now();
    if (wait <= 0) {
      this.#publish();
      return;
    }
    // Deliveries committed after the last note may be after the others' look-ups: one more note.
    this.#trailing = setTimeout(() => {
      this.#trailing = undefined;
      this.#publish();
    }, wait);
    this.#trailing.unref();
  }

  #publish(): void {
    this.#lastNoteAt = performance.now();
    this.channel.publish(this.#origin).catch(() => undefined);
  }

  async stop(): Promise<void> {
    clearTimeout(this.#trailing);
    await this.channel.close();
  }
}
