import type { InstancePacing, InstanceProvider } from '@switchboard/contract';

/** The pacing an instance runs with, defaults applied. */
export interface EffectivePacing {
  /** Messages per second per sender number; 0: no limit. */
  perSecond: number;
  /** Most messages of the instance handed to its upstream at once. */
  concurrency: number;
}

/**
 * Defaults per provider: iMessage lines and WhatsApp numbers get banned when they blast, so real
 * upstreams send one message per second per number; the simulator is not limited.
 */
const DEFAULT_PACING: Record<InstanceProvider, EffectivePacing> = {
  simulator: { perSecond: 0, concurrency: 16 },
  bluebubbles: { perSecond: 1, concurrency: 1 },
  twilio: { perSecond: 1, concurrency: 4 },
  baileys: { perSecond: 1, concurrency: 1 },
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
  };
}

/** The reservation book's key of a sender number on an instance (also the name of its messages' sender turns). */
export function senderKey(instanceId: string, from: string): string {
  return `${instanceId}\u0000${from}`;
}

/** A slot of an instance's concurrency, held while its upstream works on a message. */
export type PacingSlot = { release(): void };

/**
 * Paces sends per instance and sender number: a reservation book per sender (a message reserves
 * the next free instant, one `1 / perSecond` after the previous one, so a burst leaves at the
 * configured rate in arrival order) and a count of sends in flight per instance. Nothing here
 * waits: callers are told how long to wait and come back, so a paced instance never holds a
 * worker that another instance's messages could use.
 */
export class InstancePacer {
  readonly #nextFree = new Map<string, number>();
  /** When each sender's last send reached its upstream (a monotonic clock's milliseconds). */
  readonly #departed = new Map<string, number>();
  readonly #inFlight = new Map<string, number>();
  readonly #waiters = new Map<string, Array<() => void>>();

  /**
   * Reserves the next instant `from` of `instanceId` may send at and answers how many
   * milliseconds from `now` that is (0: now).
   */
  reserve(instanceId: string, from: string, pacing: EffectivePacing, now: number): number {
    if (pacing.perSecond <= 0) return 0;
    const key = senderKey(instanceId, from);
    const at = Math.max(now, this.#nextFree.get(key) ?? 0);
    this.#nextFree.set(key, at + 1000 / pacing.perSecond);
    return at - now;
  }

  /**
   * Spaces the sends themselves: a reserved instant is when a message may start, and the work
   * between it and the upstream (its attempt's commit, its files) can make one late, which would
   * bring the next, on time, closer than `1 / perSecond` behind it. Records that `from` of
   * `instanceId` hands a message to its upstream at the first moment at least that far after its
   * previous one, and answers how many milliseconds from `now` that is (0: now). `now` is a
   * monotonic clock's (`performance.now()`): this spaces real requests to the upstream.
   */
  depart(instanceId: string, from: string, pacing: EffectivePacing, now: number): number {
    if (pacing.perSecond <= 0) return 0;
    const key = senderKey(instanceId, from);
    const previous = this.#departed.get(key);
    const at = previous === undefined ? now : Math.max(now, previous + 1000 / pacing.perSecond);
    this.#departed.set(key, at);
    return at - now;
  }

  /** Takes one of the instance's concurrency slots, or answers null when all are taken. */
  tryAcquire(instanceId: string, pacing: EffectivePacing): PacingSlot | null {
    const running = this.#inFlight.get(instanceId) ?? 0;
    if (running >= pacing.concurrency) return null;
    this.#inFlight.set(instanceId, running + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#inFlight.get(instanceId) ?? 1) - 1;
        if (left <= 0) this.#inFlight.delete(instanceId);
        else this.#inFlight.set(instanceId, left);
        const waiters = this.#waiters.get(instanceId);
        this.#waiters.delete(instanceId);
        for (const wake of waiters ?? []) wake();
      },
    };
  }

  /** Settles when a slot of the instance is next released. */
  whenFree(instanceId: string): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(instanceId) ?? [];
      waiters.push(resolve);
      this.#waiters.set(instanceId, waiters);
    });
  }
}
