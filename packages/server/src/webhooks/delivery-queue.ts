import PQueue from 'p-queue';

/** Options of {@link DeliveryQueue}. */
export interface DeliveryQueueOptions {
  /** Most tasks running at once across every key. */
  concurrency: number;
  /** Most tasks running (or waiting for a global slot) at once for one key. Default {@link DEFAULT_PER_KEY_CONCURRENCY}. */
  perKeyConcurrency?: number;
  /** Most tasks accepted and not yet settled; `enqueue` beyond it rejects. Default 10000. */
  maxQueued?: number;
}

/** Tasks of one key (one receiver) running at once unless `perKeyConcurrency` says otherwise. */
export const DEFAULT_PER_KEY_CONCURRENCY = 2;

/** Rejects `enqueue` when the queue already holds `maxQueued` tasks. */
export class DeliveryQueueFullError extends Error {
  override readonly name = 'DeliveryQueueFullError';
}

/** Rejects `enqueue` after `close()`, and every task that had not started when `close()` was called. */
export class DeliveryQueueClosedError extends Error {
  override readonly name = 'DeliveryQueueClosedError';

  constructor() {
    super('the delivery queue is closed');
  }
}

interface Lane {
  queue: PQueue;
  /** Tasks of this key accepted and not yet settled. */
  outstanding: number;
}

/**
 * A bounded concurrency gate that is fair between keys (webhooks): tasks of one key start in FIFO
 * order, at most `perKeyConcurrency` at a time, and keys take turns for the `concurrency` global
 * slots, so a receiver that hangs on every request holds at most `perKeyConcurrency` slots while
 * the others keep flowing.
 *
 * @example
 * const queue = new DeliveryQueue({ concurrency: 16, perKeyConcurrency: 2 });
 * await queue.enqueue(webhook.id, () => deliver({ ... }));
 */
export class DeliveryQueue {
  readonly #global: PQueue;
  readonly #lanes = new Map<string, Lane>();
  readonly #perKeyConcurrency: number;
  readonly #maxQueued: number;
  #outstanding = 0;
  #running = 0;
  #closed = false;
  #idleWaiters: Array<() => void> = [];

  constructor(options: DeliveryQueueOptions) {
    const perKey = options.perKeyConcurrency ?? DEFAULT_PER_KEY_CONCURRENCY;
    const maxQueued = options.maxQueued ?? 10_000;
    for (const [name, value] of [
      ['concurrency', options.concurrency],
      ['perKeyConcurrency', perKey],
      ['maxQueued', maxQueued],
    ] as const) {
      if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a whole number >= 1, got ${value}`);
      }
    }
    this.#global = new PQueue({ concurrency: options.concurrency });
    this.#perKeyConcurrency = perKey;
    this.#maxQueued = maxQueued;
  }

  /** Tasks accepted but not started yet. */
  get size(): number {
    return this.#outstanding - this.#running;
  }

  /** Tasks running now. */
  get pending(): number {
    return this.#running;
  }

  /** Tasks of `key` accepted and not yet settled (running or waiting). */
  outstandingOf(key: string): number {
    return this.#lanes.get(key)?.outstanding ?? 0;
  }

  /** Whether `enqueue` would reject because `maxQueued` tasks are outstanding. */
  get isFull(): boolean {
    return this.#outstanding >= this.#maxQueued;
  }

  /**
   * Runs `task` when the key's and the queue's limits allow, and settles with its result.
   *
   * @throws {DeliveryQueueFullError} (as a rejection) when `maxQueued` tasks are outstanding.
   * @throws {DeliveryQueueClosedError} (as a rejection) after `close()`, or when closed before the task started.
   */
  enqueue<T>(key: string, task: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new DeliveryQueueClosedError());
    if (this.isFull) {
      return Promise.reject(
        new DeliveryQueueFullError(`the delivery queue holds ${this.#maxQueued} tasks already`),
      );
    }
    let lane = this.#lanes.get(key);
    if (lane === undefined) {
      lane = { queue: new PQueue({ concurrency: this.#perKeyConcurrency }), outstanding: 0 };
      this.#lanes.set(key, lane);
    }
    const owner = lane;
    owner.outstanding += 1;
    this.#outstanding += 1;

    const run = async (): Promise<T> => {
      if (this.#closed) throw new DeliveryQueueClosedError();
      this.#running += 1;
      try {
        return await task();
      } finally {
        this.#running -= 1;
      }
    };
    // The lane admits at most perKeyConcurrency tasks of this key into the global FIFO, and a key
    // re-enters at its back after each completion: that is the round-robin between keys.
    const result = owner.queue.add(() => this.#global.add(run, { throwOnTimeout: true }), {
      throwOnTimeout: true,
    });
    const settle = () => this.#settle(key, owner);
    result.then(settle, settle);
    return result;
  }

  #settle(key: string, lane: Lane): void {
    lane.outstanding -= 1;
    this.#outstanding -= 1;
    // Drop idle lanes so thousands of webhooks over a process lifetime do not accumulate.
    if (lane.outstanding === 0 && this.#lanes.get(key) === lane) this.#lanes.delete(key);
    if (this.#outstanding === 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves when every accepted task has settled. */
  onIdle(): Promise<void> {
    if (this.#outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Stops starting tasks; running ones finish. */
  pause(): void {
    this.#global.pause();
  }

  /** Starts tasks again after `pause()`. */
  resume(): void {
    this.#global.start();
  }

  /** Whether `pause()` is in effect. */
  get isPaused(): boolean {
    return this.#global.isPaused;
  }

  /**
   * Stops accepting tasks, rejects every task that has not started with
   * {@link DeliveryQueueClosedError} (durable work is picked up again on the next start), and
   * resolves once the running tasks have settled.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#global.start();
    await this.onIdle();
  }
}
