import { performance } from 'node:perf_hooks';
import type { Clock } from '../../clock';
import type { MessageRecord } from '../../store/message-repository';
import type { RouteStop } from '../routing/channel-planner';
import { policyHold, policyHoldExpired } from '../routing/routing-steps';
import type { SendAllowance } from '../send-policy/send-allowance';
import type { AttemptTransactions } from './attempt-transactions';
import { after } from './pacing-gate';

/** Dependencies of {@link PolicyHolds}. */
export interface PolicyHoldsOptions {
  /** The send policies' allowance. */
  allowance: Pick<SendAllowance, 'admit'>;
  /** The time source. */
  clock: Clock;
  /** How long a message may be held before it fails (`SEND_POLICY_HOLD_WINDOW_MS`). */
  holdWindowMs: number;
  /** How often a held message looks at its allowance again (`SEND_POLICY_RECHECK_MS`). */
  recheckMs: number;
}

/** What the send policy says of a queued message: it goes, it waits, or it failed. */
export type PolicyVerdict =
  | { kind: 'go' }
  | { kind: 'wait'; resume: Promise<void> }
  | { kind: 'failed' };

/**
 * The send policy in front of a queued message's delivery: asks the allowance (which counts the
 * send or records why it waits), writes the hold to the routing trace once per hold, and fails
 * a message held longer than the hold window since it was queued with `SEND_POLICY_HOLD_EXPIRED`.
 * A held message stays `queued` and looks again every `recheckMs` (and at once when its
 * allowance returns), with the other messages held on its number and channel, in the order they
 * were held: it is never dropped and never sent before its allowance.
 */
export class PolicyHolds {
  /**
   * The next look of the messages held on one number and channel: they come back together, in
   * the order they were accepted (their ids are time-ordered), so that when the allowance returns
   * they are counted, and leave, in that order (decision 0606).
   */
  readonly #wakes = new Map<string, HeldWake>();

  /** Holds over the given dependencies and the delivery's transactions. */
  constructor(
    private readonly options: PolicyHoldsOptions,
    private readonly tx: Pick<AttemptTransactions, 'fail' | 'recordSteps'>,
  ) {}

  /** The verdict on `message`, whose first channel is `stops[0]`. */
  async verdict(message: MessageRecord, stops: readonly RouteStop[]): Promise<PolicyVerdict> {
    const first = stops[0];
    if (first === undefined) return { kind: 'go' };
    const deadline = queuedAt(message) + this.options.holdWindowMs;
    const hold = await this.options.allowance.admit(message, first.channel, deadline);
    if (hold === null) return { kind: 'go' };
    const now = this.options.clock.now();
    if (now >= deadline) {
      const failure = {
        channel: null,
        code: 'SEND_POLICY_HOLD_EXPIRED',
        message: `Held by the sender number's send policy for longer than the hold window (${Math.round(this.options.holdWindowMs / 60_000)} min): ${hold.message}`,
      };
      await this.tx.fail(message, failure, 'queued', [policyHoldExpired(message, now, failure)]);
      return { kind: 'failed' };
    }
    if (message.hold?.code !== hold.code || message.hold.until !== hold.until) {
      await this.tx.recordSteps([policyHold(message, now, hold)]);
    }
    const wait = Math.min(this.options.recheckMs, Math.max(1, hold.until - now), deadline - now);
    return {
      kind: 'wait',
      resume: this.#wake(`${message.from} ${first.channel}`, message.id, wait),
    };
  }

  /**
   * Settles in `waitMs` or sooner: with the other messages held on `key` whose look comes first
   * (each settled in the order of its message's id), or on its own when its own look comes before
   * theirs (its hold window ending).
   */
  #wake(key: string, messageId: string, waitMs: number): Promise<void> {
    const at = performance.now() + waitMs;
    const existing = this.#wakes.get(key);
    if (existing && existing.at > at) return after(waitMs);
    const wake = existing ?? this.#newWake(key, at, waitMs);
    return new Promise((resolve) => wake.waiting.push({ messageId, resolve }));
  }

  #newWake(key: string, at: number, waitMs: number): HeldWake {
    const wake: HeldWake = { at, waiting: [] };
    this.#wakes.set(key, wake);
    void after(waitMs).then(() => {
      if (this.#wakes.get(key) === wake) this.#wakes.delete(key);
      wake.waiting.sort((a, b) =>
        a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0,
      );
      for (const held of wake.waiting) held.resolve();
    });
    return wake;
  }
}

/** The messages held on one number and channel that look again at `at` (`performance.now()`). */
interface HeldWake {
  at: number;
  waiting: Array<{ messageId: string; resolve: () => void }>;
}

/** When the message was last queued (its current delivery round), else created. */
function queuedAt(message: MessageRecord): number {
  for (let index = message.timeline.length - 1; index >= 0; index -= 1) {
    const entry = message.timeline[index];
    if (entry?.status === 'queued') return entry.at;
  }
  return message.createdAt.getTime();
}
