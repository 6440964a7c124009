import type { Channel } from './store-types';

/** What a send policy sets for one channel; an absent field inherits (instance, then default). */
interface StoredChannelPolicy {
  /** Sends a day from the number; null: no cap. */
  dailyCap?: number | null;
  /** Cold contacts (see `send-allowance.ts`) a day; null: no cap. */
  coldContactDailyCap?: number | null;
  /** Daily caps of the number's first days in use (day 1 first); null or empty: no warm-up. */
  warmUpRamp?: number[] | null;
}

/** A send policy of a number or instance as the operator set it. */
export interface StoredSendPolicy {
  /** The date (YYYY-MM-DD) the number has been in use since; null: its creation date. */
  inUseSince?: string | null;
  /** The operator declared the number warm: no warm-up ramp applies. */
  alreadyWarm?: boolean;
  /** Per channel settings. */
  channels?: Partial<Record<Channel, StoredChannelPolicy>>;
}

/** Which kind of thing a send policy belongs to. */
export type SendPolicyScope = 'number' | 'instance';

/** One counted send: a message that left a number, on the day it counts on. */
export interface SendUsageRecord {
  /** The message. */
  messageId: string;
  /** The sender number's id. */
  numberId: string;
  /** The channel it was counted on (its first). */
  channel: Channel;
  /** The day it counts on (YYYY-MM-DD in the configured zone). */
  day: string;
  /** The recipient (address, or the chat id of a chat-keyed send). */
  recipient: string;
  /** True when the recipient was a cold contact. */
  cold: boolean;
  /** When it was counted (epoch milliseconds). */
  at: number;
}

/** A number's restriction state. */
export interface NumberRestrictionRecord {
  /** The sender number's id. */
  numberId: string;
  /** When recent sends were refused with a restriction code (epoch ms, oldest first). */
  strikes: number[];
  /** Until when cold-contact sends hold (epoch ms); null: not restricted. */
  restrictedUntil: number | null;
  /** The upstream's code of the refusal that restricted it. */
  code: string | null;
  /** The upstream's reason. */
  reason: string | null;
  /** Last change (epoch ms). */
  updatedAt: number;
}

/** The delivery watchdog's pause of a number's sends on one channel. */
export interface NumberPauseRecord {
  /** The sender number's id. */
  numberId: string;
  /** The channel paused. */
  channel: Channel;
  /** Paused since (epoch ms); null: not paused (resumed). */
  pausedAt: number | null;
  /** The watchdog's verdict that paused it; null when not paused. */
  reason: string | null;
  /** The operator's last resume (epoch ms); null: never resumed. */
  resumedAt: number | null;
}

/** Send policies, the counts they are held against, and restrictions and pauses of numbers. */
export interface SendPolicyRepository {
  /** The policy set on a number or instance, if any. */
  findPolicy(scope: SendPolicyScope, scopeId: string): Promise<StoredSendPolicy | undefined>;
  /** Sets (replaces) the policy of a number or instance. */
  putPolicy(
    scope: SendPolicyScope,
    scopeId: string,
    policy: StoredSendPolicy,
    at: number,
  ): Promise<void>;
  /** A number's counts of `day` on `channel`. */
  usageOfDay(
    numberId: string,
    channel: Channel,
    day: string,
  ): Promise<{ sends: number; coldContacts: number }>;
  /** True when the message has been counted already. */
  isCounted(messageId: string): Promise<boolean>;
  /** True when the number has sent to `recipient` before (a counted send). */
  hasSentTo(numberId: string, recipient: string): Promise<boolean>;
  /** True when `recipient` has written to the customer's `address` (an inbound message). */
  hasWritten(customerId: string, address: string, recipient: string): Promise<boolean>;
  /**
   * Counts a send: its row, and today's counts of the number (the row every counting
   * transaction writes, so that concurrent ones conflict).
   */
  count(usage: SendUsageRecord): Promise<void>;
  /** A number's restriction state, if any was recorded. */
  findRestriction(numberId: string): Promise<NumberRestrictionRecord | undefined>;
  /** Sets a number's restriction state. */
  putRestriction(record: NumberRestrictionRecord): Promise<void>;
  /** A number's pause records, per channel (paused or resumed). */
  findPauses(numberId: string): Promise<NumberPauseRecord[]>;
  /**
   * Pauses a number's sends on `channel` at `at`, unless they are paused already (the first
   * pause keeps its time and reason). True when this call paused them.
   */
  pause(numberId: string, channel: Channel, reason: string, at: number): Promise<boolean>;
  /** Resumes a number's paused sends (on `channel`, else on every channel): the channels resumed. */
  resume(numberId: string, channel: Channel | undefined, at: number): Promise<Channel[]>;
}
