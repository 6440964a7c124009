import type { Channel } from '@switchboard/contract';
import type { StoredHold } from '../../store/message-repository';
import type { StoredSendPolicy } from '../../store/send-policy-repository';
import { daysBetween } from './send-day';
import type { ChannelPolicyValues } from './send-policy-defaults';

/** A number's policy on one channel as it holds today. */
export interface EffectiveChannelPolicy extends ChannelPolicyValues {
  /** The channel. */
  channel: Channel;
  /** The day the number has been in use since (declared, or its creation day). */
  inUseSince: string;
  /** The operator declared the number warm. */
  alreadyWarm: boolean;
  /** Which day in use today is (1: the first). */
  dayInUse: number;
  /** Today's cap of the warm-up ramp; null once warm. */
  warmUpCap: number | null;
  /** Today's cap on sends: the smaller of the daily cap and the warm-up cap; null: none. */
  todaysCap: number | null;
}

/** Today's counts of a number on a channel. */
export interface DayUsage {
  /** Sends counted today. */
  sends: number;
  /** Cold contacts counted today. */
  coldContacts: number;
}

/**
 * The policy of a number on `channel` today: each field from the number's policy, else its
 * instance's, else `defaults` (the channel's, see `send-policy-defaults.ts`); the warm-up counted from `inUseSince` (declared, else
 * `createdDay`).
 */
export function effectivePolicy(
  numberPolicy: StoredSendPolicy | undefined,
  instancePolicy: StoredSendPolicy | undefined,
  channel: Channel,
  createdDay: string,
  today: string,
  defaults: ChannelPolicyValues,
): EffectiveChannelPolicy {
  const own = numberPolicy?.channels?.[channel];
  const inherited = instancePolicy?.channels?.[channel];
  const pick = <K extends keyof ChannelPolicyValues>(key: K) =>
    (own?.[key] !== undefined
      ? own[key]
      : inherited?.[key] !== undefined
        ? inherited[key]
        : defaults[key]) as ChannelPolicyValues[K] | null;
  const dailyCap = pick('dailyCap');
  const coldContactDailyCap = pick('coldContactDailyCap');
  const warmUpRamp = pick('warmUpRamp') ?? [];
  const inUseSince = numberPolicy?.inUseSince ?? instancePolicy?.inUseSince ?? createdDay;
  const alreadyWarm = numberPolicy?.alreadyWarm ?? instancePolicy?.alreadyWarm ?? false;
  const dayInUse = Math.max(1, daysBetween(inUseSince, today) + 1);
  const warmUpCap = alreadyWarm ? null : (warmUpRamp[dayInUse - 1] ?? null);
  const caps = [dailyCap, warmUpCap].filter((cap): cap is number => cap !== null);
  return {
    channel,
    dailyCap,
    coldContactDailyCap,
    warmUpRamp,
    inUseSince,
    alreadyWarm,
    dayInUse,
    warmUpCap,
    todaysCap: caps.length > 0 ? Math.min(...caps) : null,
  };
}

/**
 * Why a send to a (`cold` or not) recipient must wait today, or null when it may go: the
 * WhatsApp restriction (cold contacts, until `restrictedUntil`), then today's cap (`warm_up`
 * when the ramp is the tighter cap), then the cold-contact cap. The allowance returns at
 * `nextDay` (the restriction: when it ends).
 */
export function holdOf(
  policy: EffectiveChannelPolicy,
  usage: DayUsage,
  cold: boolean,
  restrictedUntil: number | null,
  now: number,
  nextDay: number,
): StoredHold | null {
  if (cold && restrictedUntil !== null && restrictedUntil > now) {
    return {
      code: 'restricted',
      message:
        'WhatsApp restricted this number after refusing sends to new contacts: messages to people who have not written to it wait until the restriction ends',
      until: restrictedUntil,
    };
  }
  if (policy.todaysCap !== null && usage.sends >= policy.todaysCap) {
    const warming = policy.warmUpCap !== null && policy.warmUpCap === policy.todaysCap;
    return {
      code: warming ? 'warm_up' : 'daily_cap',
      message: warming
        ? `Day ${policy.dayInUse} of this number's warm-up allows ${policy.todaysCap} sends on ${policy.channel}, all used today`
        : `This number's daily cap of ${policy.todaysCap} sends on ${policy.channel} is used up today`,
      until: nextDay,
    };
  }
  if (
    cold &&
    policy.coldContactDailyCap !== null &&
    usage.coldContacts >= policy.coldContactDailyCap
  ) {
    return {
      code: 'cold_contact_cap',
      message: `This number's daily cap of ${policy.coldContactDailyCap} new contacts on ${policy.channel} is used up today`,
      until: nextDay,
    };
  }
  return null;
}
