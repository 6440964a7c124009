import type { Channel } from '@switchboard/contract';

/** A channel's policy with every field decided. */
export interface ChannelPolicyValues {
  /** Sends a day from the number; null: no cap. */
  dailyCap: number | null;
  /** Cold contacts a day; null: no cap. */
  coldContactDailyCap: number | null;
  /** Daily caps of the number's first days in use (day 1 first); empty: no warm-up. */
  warmUpRamp: number[];
}

/**
 * The policy of a number nobody configured, per channel. Where each value comes from is written
 * in docs/providers/keeping-numbers-healthy.md and decision 0620:
 * - WhatsApp: 250 sends a day is the first messaging tier WhatsApp gives a new business number
 *   (Meta's messaging limits); 20 cold contacts a day stays below the "restricted for 24 h after
 *   30–40 messages to new users" and "banned after 20 messages" reports of the Baileys and
 *   Evolution API trackers (issue 56); the ramp climbs to the daily cap over a week.
 * - iMessage: 50 cold contacts a day is Sendblue's documented limit per line (peers.md); the
 *   ramp doubles from it over four days; no daily cap beyond (Apple publishes none).
 * - SMS: none; the carrier and Twilio enforce their own (A2P 10DLC) limits.
 */
const DEFAULT_CHANNEL_POLICIES: Readonly<Record<Channel, ChannelPolicyValues>> = {
  whatsapp: {
    dailyCap: 250,
    coldContactDailyCap: 20,
    warmUpRamp: [20, 30, 50, 75, 100, 150, 200],
  },
  imessage: { dailyCap: null, coldContactDailyCap: 50, warmUpRamp: [50, 100, 200, 400] },
  sms: { dailyCap: null, coldContactDailyCap: null, warmUpRamp: [] },
};

/**
 * The defaults of a number on the simulator: none. It reaches no real network, so nothing is at
 * risk, and load tests and benchmarks run through it unthrottled unless a policy is set.
 */
const NO_LIMITS: Readonly<ChannelPolicyValues> = {
  dailyCap: null,
  coldContactDailyCap: null,
  warmUpRamp: [],
};

/** The defaults of a channel on an instance of `provider` (see {@link DEFAULT_CHANNEL_POLICIES}). */
export function defaultsFor(provider: string | undefined, channel: Channel): ChannelPolicyValues {
  return provider === 'simulator' ? NO_LIMITS : DEFAULT_CHANNEL_POLICIES[channel];
}
