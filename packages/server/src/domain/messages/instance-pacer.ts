import type { InstancePacing, InstanceProvider } from '@switchboard/contract';
import { departureGapMs, paceGapMs, type RandomSource } from './pace-gap';

/** The pacing an instance runs with, defaults applied. */
export interface EffectivePacing {
  /** Messages per second per sender number; 0: no limit. */
  perSecond: number;
  /** Most messages of the instance handed to its upstream at once. */
  concurrency: number;
  /** How far each gap strays from the interval at random, 0..1 (see `pace-gap.ts`). */
  jitter: number;
}

/**
 * Defaults per provider: iMessage lines and WhatsApp numbers get banned when they blast, so real
 * upstreams send one message per second per number, with gaps jittered by ±50 % (a fixed interval
 * is a bot's signature; half the interval is the shortest gap it allows); the simulator is not
 * limited and, when paced, paces exactly (tests read its timings).
 */
const DEFAULT_PACING: Record<InstanceProvider, EffectivePacing> = {
  simulator: { perSecond: 0, concurrency: 16, jitter: 0 },
  bluebubbles: { perSecond: 1, concurrency: 1, jitter: 0.5 },
  twilio: { perSecond: 1, concurrency: 4, jitter: 0.5 },
  baileys: { perSecond: 1, concurrency: 1, jitter: 0.5 },
};

/** The pacing of an instance of `provider` configured with `pacing`. */
export function effectivePacing(
  provider: InstanceProvider,
  pacing: InstancePacing | undefined,
): EffectivePacing {
  const defaults = DEFAULT_PACING[provider];
  return {
    perSecond: pacing?.perSecond ?? defaults.perSecond,
    concurrency: pacing?.concurrency ?? defaults.concurrency,
    jitter: pacing?.jitter ?? defaults.jitter,
  };
}

/** The reservation book's key of a sender number on an instance (also the name of its messages' sender turns). */
export function senderKey(instanceId: string, from: string): string {
  return `${instanceId}\u0000${from}`;
}

/**
 * How long a slot freed for a waiting message stays held for it: the message comes back through
 * its dispatcher within moments; one that never does (its process stopping) gives the slot back.
 */
const HELD_FOR_WAITER_MS = 30_000;

/** A slot of an instance's concurrency, held while its upstream works on a message. */
export type PacingSlot = { release(): void };

/**
 * Paces sends per instance and sender number: a reservation book per sender (a message reserves
 * the next free instant, one gap after the previous one: `1 / perSecond` jittered, see
 * `pace-gap.ts`, so a burst leaves at the configured rate in arrival order, never at a fixed
 * interval) and a count of sends in flight per instance. Nothing here
 * waits: callers are told how long to wait and come back, so a paced instance never holds a
 * worker that another instance's messages could use.
 */
export class InstancePacer {
  readonly #nextFree = new Map<string, number>();
  /** When each sender's last send reached its upstream (a monotonic clock's milliseconds). */
  readonly #departed = new Map<string, number>();
  readonly #inFlight = new Map<string, number>();
  /** Messages waiting for a slot of each instance, first come first. */
  readonly #waiters = new Map<string, Array<{ claimant: string; wake: () => void }>>();
  /** The concurrency each instance last ran with. */
  readonly #capacity = new Map<string, number>();
  /** Slots held for the waiter they were freed for, until it takes them. */
  readonly #granted = new Map<string, { instanceId: string; timer: NodeJS.Timeout }>();

  /** A pacer drawing its gaps' jitter from `random` (`Math.random` unless a test injects one). */
  constructor(protected readonly random: RandomSource = Math.random) {}

  /**
   * Reserves the next instant `from` of `instanceId` may send at and answers how many
   * milliseconds from `now` that is (0: now). A cluster-wide pacer (`SharedPacer`) answers
   * asynchronously, from a book all processes share, and keeps the slot under `_messageId` there
   * (another process that drives the message waits for the same slot); one process keeps its
   * messages' slots itself (`accepted-slots.ts`), so here it is not used.
   */
  reserve(
    instanceId: string,
    from: string,
    pacing: EffectivePacing,
    now: number,
    _messageId?: string,
  ): number | Promise<number> {
    if (pacing.perSecond <= 0) return 0;
    const key = senderKey(instanceId, from);
    const at = Math.max(now, this.#nextFree.get(key) ?? 0);
    this.#nextFree.set(key, at + paceGapMs(pacing, this.random));
    return at - now;
  }

  /**
   * Spaces the sends themselves: a reserved instant is when a message may start, and the work
   * between it and the upstream (its attempt's commit, its files) can make one late, which would
   * bring the next, on time, closer than the pacing allows behind it. Records that `from` of
   * `instanceId` hands a message to its upstream at the first moment at least the shortest gap
   * (`departureGapMs`) after its previous one, and answers how many milliseconds from `now` that is (0: now). `now` is a
   * monotonic clock's (`performance.now()`): this spaces real requests to the upstream. A
   * cluster-wide pacer (`SharedPacer`) answers asynchronously, from a book all processes share.
   */
  depart(
    instanceId: string,
    from: string,
    pacing: EffectivePacing,
    now: number,
  ): number | Promise<number> {
    if (pacing.perSecond <= 0) return 0;
    const key = senderKey(instanceId, from);
    const previous = this.#departed.get(key);
    const at = previous === undefined ? now : Math.max(now, previous + departureGapMs(pacing));
    this.#departed.set(key, at);
    return at - now;
  }

  /**
   * Takes one of the instance's concurrency slots for `claimant` (a message id), or answers null
   * when all are taken. The slots go first come, first served: while messages wait for one (see
   * {@link whenFree}), a newcomer does not take a slot freed for them, and a slot released while
   * someone waits is held for the first of them until it comes back for it (or forgoes it, see
   * {@link forgo}). Without this, a message whose start came while the slots were busy could be
   * overtaken by its sender's next one, which found the slot free before the first came back, and
   * a chat's messages would leave out of order.
   */
  tryAcquire(instanceId: string, pacing: EffectivePacing, claimant: string): PacingSlot | null {
    this.#capacity.set(instanceId, pacing.concurrency);
    // Slots a change of concurrency added go to those waiting first.
    this.#grantSpare(instanceId);
    const granted = this.#granted.get(claimant);
    if (granted?.instanceId === instanceId) {
      this.#granted.delete(claimant);
      clearTimeout(granted.timer);
      return this.#slot(instanceId);
    }
    const running = this.#inFlight.get(instanceId) ?? 0;
    if (running >= pacing.concurrency || this.#waiters.has(instanceId)) return null;
    this.#inFlight.set(instanceId, running + 1);
    return this.#slot(instanceId);
  }

  /**
   * Settles when a slot of the instance is free for `claimant`: held for it (it takes it with
   * {@link tryAcquire}) once those who waited before it have theirs.
   */
  whenFree(instanceId: string, claimant: string): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(instanceId) ?? [];
      waiters.push({ claimant, wake: resolve });
      this.#waiters.set(instanceId, waiters);
    });
  }

  /**
   * `claimant` will not take the slot held for it (its message left the queue, or went to wait
   * for something else): the slot passes to the next in line. Does nothing when none is held.
   */
  forgo(claimant: string): void {
    const granted = this.#granted.get(claimant);
    if (!granted) return;
    this.#granted.delete(claimant);
    clearTimeout(granted.timer);
    this.#free(granted.instanceId);
  }

  /** A slot counted in flight for `instanceId`, released once. */
  #slot(instanceId: string): PacingSlot {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#free(instanceId);
      },
    };
  }

  /** A slot of `instanceId` is free: back to the instance, and on to the first waiter. */
  #free(instanceId: string): void {
    const left = (this.#inFlight.get(instanceId) ?? 1) - 1;
    if (left <= 0) this.#inFlight.delete(instanceId);
    else this.#inFlight.set(instanceId, left);
    this.#grantSpare(instanceId);
  }

  /**
   * Holds each free slot of `instanceId` for the next waiter and wakes it; the slot stays counted
   * in flight, and is given back if the waiter never comes for it.
   */
  #grantSpare(instanceId: string): void {
    const waiters = this.#waiters.get(instanceId);
    if (!waiters) return;
    const capacity = this.#capacity.get(instanceId) ?? 1;
    while (waiters.length > 0 && (this.#inFlight.get(instanceId) ?? 0) < capacity) {
      const next = waiters.shift();
      if (!next) break;
      this.#inFlight.set(instanceId, (this.#inFlight.get(instanceId) ?? 0) + 1);
      const timer = setTimeout(() => this.forgo(next.claimant), HELD_FOR_WAITER_MS);
      timer.unref();
      this.#granted.set(next.claimant, { instanceId, timer });
      next.wake();
    }
    if (waiters.length === 0) this.#waiters.delete(instanceId);
  }
}
