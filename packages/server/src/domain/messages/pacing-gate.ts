import { performance } from 'node:perf_hooks';
import type { Clock } from '../../clock';
import type { MessageRecord } from '../../store/message-repository';
import { AcceptedSlots } from './accepted-slots';
import type { EffectivePacing, InstancePacer, PacingSlot } from './instance-pacer';
import type { SenderTurn } from './sender-turns';

/** Dependencies of {@link PacingGate}. */
export interface PacingGateOptions {
  /** The send rate and concurrency of an instance (starting it when it is not running). */
  pacingOf: (instanceId: string) => Promise<EffectivePacing>;
  /** Paces sends per instance and sender number. */
  pacer: InstancePacer;
  /** The time source. */
  clock: Clock;
  /**
   * Told when a message being accepted could not take its start slot (the instance could not
   * start, or every book and the process failed): it then takes one when driven, and may leave
   * after sends of its sender accepted later.
   */
  slotNotTaken?: (error: unknown, messageId: string) => void;
}

/** Whether a `queued` message may be sent now. */
export type Admission =
  /** It may: it holds one of the instance's slots until `slot` is released. */
  | { kind: 'admitted'; slot: PacingSlot }
  /**
   * It must wait until `resume` settles, its reservation kept; `waitMs` is the wait its sender's
   * send rate imposes (null when every slot of the instance is busy instead).
   */
  | { kind: 'wait'; resume: Promise<void>; waitMs: number | null }
  /** The instance's pacing could not be read (it cannot start): `error` says why. */
  | { kind: 'unavailable'; error: unknown };

/** A promise that settles after `ms` without holding the process open. */
export function after(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * The pacing of message delivery, in front of the attempts: a message reserves its sender's next
 * instant (at most `perSecond` a second) and one of its instance's slots (at most `concurrency`
 * sends at once) before it is claimed, and waits `queued`, holding no worker, when either is not
 * free yet. The pacer (`instance-pacer.ts`) keeps the reservations; this gate only asks it.
 */
export class PacingGate {
  readonly #accepted = new AcceptedSlots();

  /** A gate over the given dependencies. */
  constructor(private readonly options: PacingGateOptions) {}

  /**
   * Takes `message`'s start slot as it is accepted (in its send's transaction, before the answer
   * to the send), so a sender's slots follow the order its sends were accepted in, whichever
   * process accepted them and whenever a worker gets to them: each chat keeps its order. Settles
   * once the slot is taken; never fails (without a slot the message reserves one when driven).
   */
  accept(message: MessageRecord): Promise<void> {
    const at = this.#slotAtAcceptance(message);
    this.#accepted.keep(message.id, at, this.options.clock.now());
    return at.then(() => undefined);
  }

  async #slotAtAcceptance(message: MessageRecord): Promise<number | undefined> {
    const { pacer, clock } = this.options;
    try {
      const pacing = await this.options.pacingOf(message.instanceId);
      if (pacing.perSecond <= 0) return undefined;
      const wait = await pacer.reserve(
        message.instanceId,
        message.from,
        pacing,
        clock.now(),
        message.id,
      );
      // The wait counts from when the book answered: from now, not from the question.
      return clock.now() + wait;
    } catch (error) {
      this.options.slotNotTaken?.(error, message.id);
      return undefined;
    }
  }

  /**
   * The wait until `message`'s start: its slot taken at acceptance in this process, else the one
   * its sender's shared book keeps for it (taken by the process that accepted it, or by an earlier
   * turn), else one reserved now.
   */
  async #startWait(message: MessageRecord, pacing: EffectivePacing): Promise<number> {
    const { pacer, clock } = this.options;
    const accepted = await this.#accepted.claim(message.id);
    if (accepted !== undefined) return accepted - clock.now();
    // Another process may have accepted it: the shared book answers the slot it took then.
    return pacer.reserve(message.instanceId, message.from, pacing, clock.now(), message.id);
  }

  /**
   * Whether `message` may be sent now: reserves its sender's next instant (unless `reserved`
   * already, or taken at acceptance) and one of the instance's slots. Paced messages of a sender
   * decide in their turn's order (see {@link SenderTurn}; the delivery has waited for the turn
   * already, for the send policy, decision 0606); unpaced ones leave in parallel anyway.
   */
  async admit(message: MessageRecord, reserved: boolean, turn: SenderTurn): Promise<Admission> {
    const { pacer } = this.options;
    let pacing: EffectivePacing;
    try {
      pacing = await this.options.pacingOf(message.instanceId);
    } catch (error) {
      return { kind: 'unavailable', error };
    }
    if (pacing.perSecond > 0) await turn.ready();
    if (!reserved) {
      const wait = await this.#startWait(message, pacing);
      if (wait > 0) return { kind: 'wait', resume: after(wait), waitMs: wait };
    }
    const slot = pacer.tryAcquire(message.instanceId, pacing, message.id);
    if (!slot) {
      return { kind: 'wait', resume: pacer.whenFree(message.instanceId, message.id), waitMs: null };
    }
    return { kind: 'admitted', slot };
  }

  /**
   * The turn of `messageId` ended without it taking the instance slot held for it (see
   * {@link InstancePacer.forgo}); nothing when none was held.
   */
  forgo(messageId: string): void {
    this.options.pacer.forgo(messageId);
  }

  /**
   * Settles when `from` may hand its next message to `instanceId`'s upstream: at least
   * `1 / perSecond` after its previous one, even when that one left later than its reserved
   * instant (see {@link InstancePacer.depart}).
   */
  async departure(instanceId: string, from: string): Promise<void> {
    let pacing: EffectivePacing;
    try {
      pacing = await this.options.pacingOf(instanceId);
    } catch {
      // The instance stopped meanwhile: the send itself fails and is reported.
      return;
    }
    const wait = await this.options.pacer.depart(instanceId, from, pacing, performance.now());
    if (wait > 0) await after(wait);
  }
}
