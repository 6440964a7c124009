/**
 * One message's turn at the pacing decision (its sender's reservation and its instance's slot),
 * taken when a worker starts on it.
 */
export interface SenderTurn {
  /** Names the message's sender (instance and number) once the message has been read. */
  name(sender: string): void;
  /** Settles once every turn taken before this one has named its sender and no earlier turn of the same sender is still deciding. */
  ready(): Promise<void>;
  /** This turn has decided, or gave up before deciding; idempotent. */
  done(): void;
}

/**
 * Keeps the pacing decisions of one sender's messages in the order workers started on them. A
 * worker reads the message before it knows the sender, and reads on a pool of connections
 * (PostgreSQL) can answer out of order: without turns, the second message of a burst could reserve
 * the first instant and leave first. A turn waits only for earlier turns that have not named their
 * sender yet (one read each) and for earlier turns of its own sender; other senders' messages
 * never wait for each other's reservations.
 *
 * @example
 * const turn = turns.take();
 * try {
 *   const message = await read(id);
 *   turn.name(`${message.instanceId} ${message.from}`);
 *   await turn.ready();
 *   reserve(message);
 * } finally {
 *   turn.done();
 * }
 */
export class SenderTurns {
  #next = 0;
  /** Turns that have not named their sender yet, in the order they were taken. */
  readonly #unnamed = new Set<number>();
  /** Turns that named their sender and have not decided, with it. */
  readonly #deciding = new Map<number, string>();
  #changed: { promise: Promise<void>; resolve: () => void } | undefined;

  /** Takes the next turn. */
  take(): SenderTurn {
    const ticket = this.#next;
    this.#next += 1;
    this.#unnamed.add(ticket);
    let sender: string | undefined;
    let finished = false;
    return {
      name: (named) => {
        if (finished || sender !== undefined) return;
        sender = named;
        this.#unnamed.delete(ticket);
        this.#deciding.set(ticket, named);
        this.#notify();
      },
      ready: async () => {
        while (this.#blocked(ticket, sender)) await this.#nextChange();
      },
      done: () => {
        if (finished) return;
        finished = true;
        this.#unnamed.delete(ticket);
        this.#deciding.delete(ticket);
        this.#notify();
      },
    };
  }

  /** Turns still open (named or not), for tests and gauges. */
  get open(): number {
    return this.#unnamed.size + this.#deciding.size;
  }

  #blocked(ticket: number, sender: string | undefined): boolean {
    // Unnamed turns iterate in the order they were taken, so the oldest one decides; named ones in
    // the order they were named, which is not that order (a few, at most a worker each).
    const oldestUnnamed = this.#unnamed.values().next();
    if (!oldestUnnamed.done && oldestUnnamed.value < ticket) return true;
    for (const [earlier, named] of this.#deciding) {
      if (earlier < ticket && named === sender) return true;
    }
    return false;
  }

  #nextChange(): Promise<void> {
    if (!this.#changed) {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((settle) => {
        resolve = settle;
      });
      this.#changed = { promise, resolve };
    }
    return this.#changed.promise;
  }

  #notify(): void {
    const changed = this.#changed;
    this.#changed = undefined;
    changed?.resolve();
  }
}
