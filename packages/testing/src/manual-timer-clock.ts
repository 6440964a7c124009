import type { TimerClock } from '@switchboard/provider-kit';

interface PendingTask {
  at: number;
  seq: number;
  task: () => void;
}

/** Lets every queued promise callback run, so work a timer started settles before we go on. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A {@link TimerClock} that only moves when told to. `advance` runs every task that falls due, in
 * time order, and lets the promise work each one starts (such as delivering an event to a sink)
 * settle before running the next, so a test sees the effects of exactly the elapsed time.
 * @example const clock = new ManualTimerClock(); await clock.advance(500);
 */
export class ManualTimerClock implements TimerClock {
  #now: number;
  #seq = 0;
  #tasks: PendingTask[] = [];

  /** Starts the clock at `start` (epoch milliseconds). */
  constructor(start: number = Date.parse('2026-01-01T00:00:00.000Z')) {
    this.#now = start;
  }

  /** The current manual time. */
  now(): number {
    return this.#now;
  }

  /** Queues `task` to run once the clock has advanced `delayMs`. */
  schedule(delayMs: number, task: () => void): () => void {
    const entry: PendingTask = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, task };
    this.#tasks.push(entry);
    return () => {
      this.#tasks = this.#tasks.filter((pending) => pending !== entry);
    };
  }

  /** How many tasks are waiting. */
  get pending(): number {
    return this.#tasks.length;
  }

  /** Moves time forward by `ms`, running every task that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    // Work begun before this call (an async send that has not reached its timer yet) goes first.
    await settle();
    for (;;) {
      const next = this.#nextDue(target);
      if (!next) break;
      this.#tasks = this.#tasks.filter((pending) => pending !== next);
      this.#now = next.at;
      next.task();
      await settle();
    }
    this.#now = target;
    await settle();
  }

  #nextDue(limit: number): PendingTask | undefined {
    let best: PendingTask | undefined;
    for (const pending of this.#tasks) {
      if (pending.at > limit) continue;
      if (!best || pending.at < best.at || (pending.at === best.at && pending.seq < best.seq)) {
        best = pending;
      }
    }
    return best;
  }
}
