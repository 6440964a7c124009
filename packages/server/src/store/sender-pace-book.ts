/**
 * Which of a sender's two books a slot is taken in: `start`, when a message may start (taken in
 * the order messages arrive, which keeps each chat's order across processes), and `departure`,
 * when it may reach the upstream (the work between the two can make one late).
 */
export type PaceBookName = 'start' | 'departure';

/**
 * How long a book keeps the slot a message took (after its instant): 5 minutes. A message is
 * driven within seconds of its slot unless it waits for something else (its upstream, its files,
 * its number's send policy), and then it takes a new slot when it comes back.
 */
export const HELD_SLOT_MS = 5 * 60_000;

/**
 * Books of instants per sender number, shared by every process that uses them: each call takes
 * the sender's next free instant in one book (now, or one interval after the slot taken before,
 * whichever is later) for one message, on a clock all processes share (the database's or
 * Redis's).
 */
export interface SenderPaceBook {
  /**
   * Takes the next slot of `sender` on `instanceId` in `book`, the one after it `intervalMs` later,
   * and answers when it starts. With `messageId` (the start book), the slot is the message's: the
   * book keeps it under the id for {@link HELD_SLOT_MS}, and a later call for the same message
   * (another process that drives it: a sweep, a hand-off, a retry) answers that slot again
   * instead of taking a new one, so the message starts when it took its place, whichever process
   * sends it, and the sender's book does not move for it twice.
   */
  takeSlot(
    book: PaceBookName,
    instanceId: string,
    sender: string,
    intervalMs: number,
    messageId?: string,
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
