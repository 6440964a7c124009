import type { Channel, FallbackReason, RoutingCapability } from '@switchboard/contract';
import type { RoutingStepRecord } from '../../store/routing-step-repository';
import { type RoutedSubject, routingStep } from './routing-steps';

/** A channel of a message's plan and the instance that carries it. */
export interface RouteStop {
  /** The channel. */
  channel: Channel;
  /** The instance that carries it for this message. */
  instanceId: string;
}

/** Why the last channel considered was left. */
export interface Departure {
  /** The channel left. */
  channel: Channel;
  /** Why, as `message.fallback` reports it. */
  reason: FallbackReason;
  /** The error code. */
  code: string;
  /** The error in words. */
  message: string;
}

/** What the delivery learned about a channel before trying it. */
export interface ChannelCheck {
  /** The instance carrying the channel serves it. */
  served: boolean;
  /** The reachability answer read; null when none was (a chat, a failed probe, a resumed attempt). */
  capability: RoutingCapability | null;
}

/** How an attempt's send failed. */
export interface SendRefusal {
  /** The error code (the provider's, or `IMESSAGE_SEND_FAILED` for an error without one). */
  code: string;
  /** The error in words. */
  message: string;
  /** The provider allows the next channel (false ends routing: a timed-out send may arrive). */
  fallback: boolean;
}

/** The message a plan routes, as the planner needs it. */
interface PlannedMessage extends RoutedSubject {
  /** The recipient address; null on chat-keyed sends. */
  to: string | null;
  /** The chat of a chat-keyed send. */
  providerChatId: string | null;
  /** The send is pinned to its chat's channel. */
  pinned: boolean;
}

/** Input of {@link ChannelPlanner}. */
export interface ChannelPlanInput {
  /** The message. */
  message: PlannedMessage;
  /** The channels it tries, in order, each with its instance (worked out once per attempt). */
  stops: readonly RouteStop[];
  /** Preferred channels left out because `routing.fallback` is off. */
  withheld: readonly Channel[];
  /** The channel of an attempt already recorded, sent again as is. */
  resumed?: Channel;
}

/** The failure a message reports when no channel took it. */
export interface PlanFailure {
  /** The channel of the last send that failed outright; null when none was tried. */
  channel: Channel | null;
  /** The error code. */
  code: string;
  /** The error in words. */
  message: string;
}

/**
 * The channel-by-channel plan of one delivery attempt, pure: the delivery reports what it learned
 * (a channel's check, a refusal, an acceptance) and the planner answers what to do next, keeping
 * why the last channel was left (for `message.fallback`), the failure to report when no channel
 * takes the message, and the routing trace of every decision. No I/O, no clock: times come in.
 */
export class ChannelPlanner {
  /** Steps decided and not yet recorded, oldest first. */
  #pending: RoutingStepRecord[] = [];
  /** Why the last channel considered was left. */
  #departure: Departure | undefined;
  /** The last attempt that failed outright: what the message reports if nothing takes it. */
  #sendFailure: Departure | undefined;
  /** A refusal ended routing before the plan ran out. */
  #stopped = false;
  /** The reachability answer of the channel {@link consider} let through last. */
  #checked: RoutingCapability | null = null;

  /** A plan over `input`. */
  constructor(private readonly input: ChannelPlanInput) {}

  /** Why the last channel was left, for the `message.fallback` of the next attempt. */
  get departure(): Departure | undefined {
    return this.#departure;
  }

  /** Hands over the steps decided since the last call, to record them. */
  drain(): RoutingStepRecord[] {
    const steps = this.#pending;
    this.#pending = [];
    return steps;
  }

  /**
   * Whether to try `stop` given what its check found: a channel its instance does not serve, or
   * on which the recipient is definitely not, is skipped (`unavailable`); an unknown answer is
   * tried, and the attempt's outcome decides. A resumed attempt is tried as it is.
   */
  consider(stop: RouteStop, check: ChannelCheck, at: number): 'skip' | 'try' {
    const { message, resumed } = this.input;
    const capability = check.capability;
    if (stop.channel !== resumed) {
      const reason = !check.served
        ? `The sending instance does not serve ${stop.channel}`
        : capability?.reachable === false
          ? `${message.to} is not reachable on ${stop.channel}`
          : null;
      if (reason !== null) {
        const code = 'NO_CHANNEL_AVAILABLE';
        this.#departure = { channel: stop.channel, reason: 'unavailable', code, message: reason };
        this.#add(at, stop, {
          decision: 'skipped',
          reason: check.served ? 'recipient_unreachable' : 'channel_not_served',
          detail: reason,
          capability,
        });
        return 'skip';
      }
    }
    this.#checked = capability;
    return 'try';
  }

  /** The attempt on `stop`, which {@link consider} let through, is about to be sent. */
  trying(stop: RouteStop, at: number): void {
    const capability = this.#checked;
    this.#add(at, stop, {
      decision: 'tried',
      reason: this.#tryReason(stop.channel, capability),
      detail: `${stop.channel} is tried through instance ${stop.instanceId}`,
      capability,
    });
  }

  /** `stop` cannot take the message's files (too large, not convertible): the next one may. */
  filesRefused(stop: RouteStop, refusal: { code: string; message: string }, at: number): void {
    this.#departure = { channel: stop.channel, reason: 'send_failed', ...refusal };
    this.#sendFailure = this.#departure;
    this.#add(at, stop, {
      decision: 'skipped',
      reason: 'media_not_accepted',
      capability: this.#checked,
      code: refusal.code,
      detail: refusal.message,
    });
  }

  /**
   * The upstream refused the attempt on `stop`: `next` moves on to the next channel; `stop` ends
   * routing (the error forbids moving on).
   */
  refused(stop: RouteStop, refusal: SendRefusal, at: number): 'next' | 'stop' {
    const noChannel = refusal.code === 'NO_CHANNEL_AVAILABLE';
    const reason: FallbackReason = noChannel ? 'unavailable' : 'send_failed';
    this.#departure = {
      channel: stop.channel,
      reason,
      code: refusal.code,
      message: refusal.message,
    };
    if (reason === 'send_failed') this.#sendFailure = this.#departure;
    this.#stopped = !refusal.fallback;
    this.#add(at, stop, {
      decision: refusal.fallback ? 'refused' : 'failed',
      reason: refusal.fallback ? 'provider_refused' : 'provider_error',
      code: refusal.code,
      detail: refusal.message,
    });
    return refusal.fallback ? 'next' : 'stop';
  }

  /** The upstream accepted the attempt on `stop` under `externalId`. */
  accepted(stop: RouteStop, externalId: string, at: number): void {
    this.#add(at, stop, {
      decision: 'accepted',
      reason: 'provider_accepted',
      externalId,
      detail: `Instance ${stop.instanceId} accepted the send on ${stop.channel}`,
    });
  }

  /**
   * No channel took the message: the failure it reports (the last send that failed outright, else
   * the last channel left, else unreachable on every channel), with its trace steps.
   */
  exhausted(at: number): PlanFailure {
    const { message, stops } = this.input;
    // A refusal that ended routing is the trace's last word; otherwise it says what was left.
    const withheld = this.#stopped ? [] : this.input.withheld;
    for (const channel of withheld) {
      this.#add(at, null, {
        channel,
        decision: 'skipped',
        reason: 'fallback_disabled',
        detail: `${channel} is not tried: routing.fallback is false`,
      });
    }
    const reported = this.#sendFailure ?? this.#departure;
    const plan = stops.map((stop) => stop.channel);
    const failure: PlanFailure = {
      channel: this.#sendFailure?.channel ?? null,
      code: reported?.code ?? 'NO_CHANNEL_AVAILABLE',
      message:
        reported?.message ??
        `${message.to ?? message.providerChatId} cannot be reached on ${plan.join(', ')}`,
    };
    if (this.#stopped) return failure;
    this.#add(at, null, {
      channel: failure.channel,
      decision: 'failed',
      reason: 'no_channel_left',
      code: failure.code,
      detail: failure.message,
    });
    return failure;
  }

  #tryReason(channel: Channel, capability: RoutingCapability | null) {
    if (channel === this.input.resumed) return 'resumed' as const;
    if (this.input.message.pinned) return 'pinned_to_chat' as const;
    return capability?.reachable === true
      ? ('reachable' as const)
      : ('reachability_unknown' as const);
  }

  #add(at: number, stop: RouteStop | null, fields: Parameters<typeof routingStep>[2]): void {
    const place = stop === null ? {} : { channel: stop.channel, instanceId: stop.instanceId };
    this.#pending.push(routingStep(this.input.message, at, { ...place, ...fields }));
  }
}
