/** How long a slot taken at acceptance waits for its message's first turn before it is dropped. */
const KEPT_MS = 5 * 60_000;

/**
 * The start slots messages took when they were accepted, by message id, until the process's
 * worker first drives them: each is the instant (on the process's clock) the message may start,
 * or undefined when no slot could be taken then (the message then takes one when driven). A slot
 * is held as a promise: a worker can start on a message before its slot's round trip has answered
 * (the worker is told of the message when its transaction commits), and waits for it.
 * A message another process drives (its sweep, a hand-off) leaves its slot here; it is dropped
 * after {@link KEPT_MS}. That process finds the slot in the shared book, which keeps it under the
 * message's id (`SharedPacer`).
 */
export class AcceptedSlots {
  readonly #slots = new Map<string, { at: Promise<number | undefined>; keptUntil: number }>();

  /** Keeps `at`, the start slot `messageId` took at acceptance; `now` is the process's clock. */
  keep(messageId: string, at: Promise<number | undefined>, now: number): void {
    for (const [id, slot] of this.#slots) {
      // Kept in insertion order: the first one still kept ends the pruning.
      if (slot.keptUntil > now) break;
      this.#slots.delete(id);
    }
    this.#slots.set(messageId, { at, keptUntil: now + KEPT_MS });
  }

  /**
   * The start slot `messageId` took at acceptance, taken out of the book (a message's later turns
   * reserve anew), or undefined when it took none here.
   */
  async claim(messageId: string): Promise<number | undefined> {
    const slot = this.#slots.get(messageId);
    if (!slot) return undefined;
    this.#slots.delete(messageId);
    return slot.at;
  }

  /** Slots kept, for tests. */
  get size(): number {
    return this.#slots.size;
  }
}
