import type { PaceBookName, PaceSlot, SenderPaceBook } from '../../store/sender-pace-book';
import { type EffectivePacing, InstancePacer } from './instance-pacer';
import { departureGapMs, paceGapMs, type RandomSource } from './pace-gap';

/**
 * An {@link InstancePacer} whose books are shared by every process: a sender's reservations (when
 * a message may start) and departures (when it may reach the upstream) are slots taken from the
 * first of `books` that answers (Redis, then the database), so N processes together send a
 * number's messages at its pace, not N times it, and start them in the order they arrived
 * whichever process took them. A message's start slot is kept in the book under its id, so a
 * process that drives a message another one accepted (its sweep, a hand-off) waits for the same
 * slot rather than taking one at the back of the book. Each start slot's gap is jittered (`pace-gap.ts`) before it is
 * written to the shared book, so the cluster's gaps vary as one process's do. When no book answers (Redis and the database both away) the
 * process paces on its own, as a single process does. Concurrency slots stay in the process.
 */
export class SharedPacer extends InstancePacer {
  /**
   * Paces through `books`, tried in order, drawing the jitter of its gaps from `random`; `wallClock`
   * (Unix epoch milliseconds, agreeing with the books' clocks through NTP) times the waits.
   */
  constructor(
    private readonly books: readonly SenderPaceBook[],
    random: RandomSource = Math.random,
    private readonly wallClock: () => number = Date.now,
  ) {
    super(random);
  }

  override async reserve(
    instanceId: string,
    from: string,
    pacing: EffectivePacing,
    now: number,
    messageId?: string,
  ): Promise<number> {
    if (pacing.perSecond <= 0) return 0;
    const gap = paceGapMs(pacing, this.random);
    const shared = await this.#take('start', instanceId, from, gap, messageId);
    return shared ?? super.reserve(instanceId, from, pacing, now);
  }

  override async depart(
    instanceId: string,
    from: string,
    pacing: EffectivePacing,
    now: number,
  ): Promise<number> {
    if (pacing.perSecond <= 0) return 0;
    const shared = await this.#take('departure', instanceId, from, departureGapMs(pacing));
    return shared ?? super.depart(instanceId, from, pacing, now);
  }

  /**
   * The wait of the slot taken in the first book that answers (the one `messageId` holds there
   * already, if any), the next one `gapMs` after it, or undefined when none does.
   */
  async #take(
    book: PaceBookName,
    instanceId: string,
    from: string,
    gapMs: number,
    messageId?: string,
  ): Promise<number | undefined> {
    for (const shared of this.books) {
      try {
        return this.#waitFor(await shared.takeSlot(book, instanceId, from, gapMs, messageId));
      } catch {
        // This book is away: the next one (or the process itself) paces.
      }
    }
    return undefined;
  }

  /**
   * The wait until `slot`: until its instant on the wall clock, so the time its answer took to
   * arrive (a busy pool, a loaded machine) does not push it later, and the next sender's slot,
   * timed the same way, closer; never longer than the book's own wait counted from the answer,
   * which bounds a clock that runs behind the book's.
   */
  #waitFor(slot: PaceSlot): number {
    return Math.max(0, Math.min(slot.waitMs, slot.atMs - this.wallClock()));
  }
}
