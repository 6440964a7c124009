/**
 * Which of a sender's two books a slot is taken in: `start`, when a message may start (taken in
 * the order messages arrive, which keeps each chat's order across processes), and `departure`,
 * when it may reach the upstream (the work between the two can make one late).
 */
export type PaceBookName = 'start' | 'departure';

/**
 * Books of instants per sender number, shared by every process that uses them: each call takes
 * the sender's next free instant in one book (now, or one interval after the slot taken before,
 * whichever is later) for one message, on a clock all processes share (the database's or
 * Redis's).
 */
export interface SenderPaceBook {
  /**
   * Takes the next slot of `sender` on `instanceId` in `book`, the one after it `intervalMs` later,
   * and answers when it starts.
   */
  takeSlot(
    book: PaceBookName,
    instanceId: string,
    sender: string,
    intervalMs: number,
  ): Promise<PaceSlot>;
}

/** A slot taken in a {@link SenderPaceBook}. */
export interface PaceSlot {
  /** Milliseconds from when the book took it to the slot (0: at once). */
  waitMs: number;
  /**
   * The slot's instant on the book's clock (Unix epoch milliseconds): waiting for it on a clock
   * that agrees (NTP) does not count the time the answer took to arrive.
   */
  atMs: number;
}
