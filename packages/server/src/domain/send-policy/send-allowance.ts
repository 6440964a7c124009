import type { Channel } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { MessageRecord, StoredHold } from '../../store/message-repository';
import type { SenderNumberView } from '../../store/number-repository';
import type { NumberPauseRecord } from '../../store/send-policy-repository';
import type { Repositories, Store } from '../../store/store';
import {
  type DayUsage,
  type EffectiveChannelPolicy,
  effectivePolicy,
  holdOf,
} from './effective-send-policy';
import type { SendDay } from './send-day';
import { defaultsFor } from './send-policy-defaults';

/** Dependencies of {@link SendAllowance}. */
export interface SendAllowanceOptions {
  /** The store. */
  store: Store;
  /** The time source. */
  clock: Clock;
  /** The day boundary. */
  day: SendDay;
}

/** A number's policy on a channel today, with today's counts and its restriction. */
export interface NumberAllowance {
  /** The policy as it holds today. */
  policy: EffectiveChannelPolicy;
  /** Today's counts. */
  usage: DayUsage;
  /** Until when cold-contact sends hold (epoch ms), null when not restricted. */
  restrictedUntil: number | null;
  /** WhatsApp's code and reason of the refusal that restricted it. */
  restriction: { code: string | null; reason: string | null } | null;
  /** The delivery watchdog's pause of the number's sends on the channel, null when none. */
  paused: { since: number; reason: string } | null;
}

/**
 * Holds each outbound message to its sender number's send policy before it leaves: in one
 * transaction it reads today's counts of the number, decides (see `effective-send-policy.ts`)
 * and either counts the send or records why the message waits. The count is a row every
 * counting transaction writes, so two processes counting at once conflict (PostgreSQL runs one
 * again; SQLite runs them one at a time) and a cap holds across processes.
 *
 * A recipient is a cold contact of a number when it never wrote to that number (no inbound
 * message from it to the number) and was never answered by it (no earlier counted send of the
 * number to it); a chat-keyed or group send is never cold (decision 0620).
 */
export class SendAllowance {
  /** An allowance over the given dependencies. */
  constructor(private readonly options: SendAllowanceOptions) {}

  /**
   * Counts `message` on `channel` and answers null when it may go now, or why it waits (the
   * hold recorded on the message). A message counted before (a retry, a resumed attempt) goes,
   * unless the number's sends on the channel are paused: a pause holds every send, until
   * `holdEnds` (the end of the message's hold window) as far as anyone knows.
   */
  async admit(
    message: MessageRecord,
    channel: Channel,
    holdEnds: number,
  ): Promise<StoredHold | null> {
    const { store, clock } = this.options;
    return store.transaction(async (tx) => {
      const number = await tx.numbers.findByAddress(message.customerId, message.from);
      if (!number) return null;
      const now = clock.now();
      const paused = pauseOf(await tx.sendPolicies.findPauses(number.id), channel);
      if (paused) {
        const hold: StoredHold = {
          code: 'paused',
          message: `The delivery watchdog paused this number's sends on ${channel} (its deliveries stalled): messages wait until the operator resumes it`,
          until: holdEnds,
        };
        if (!sameHold(message.hold, hold)) await tx.messages.update(message.id, { hold });
        return hold;
      }
      if (await tx.sendPolicies.isCounted(message.id)) {
        if (message.hold) await tx.messages.update(message.id, { hold: null });
        return null;
      }
      const cold = await this.#isCold(tx, message, number);
      const allowance = await this.#allowanceIn(tx, number, channel, now);
      const nextDay = this.options.day.nextDayStart(now);
      const hold = holdOf(
        allowance.policy,
        allowance.usage,
        cold,
        allowance.restrictedUntil,
        now,
        nextDay,
      );
      if (hold) {
        if (!sameHold(message.hold, hold)) await tx.messages.update(message.id, { hold });
        return hold;
      }
      await tx.sendPolicies.count({
        messageId: message.id,
        numberId: number.id,
        channel,
        day: this.options.day.dayOf(now),
        recipient: recipientOf(message),
        cold,
        at: now,
      });
      if (message.hold) await tx.messages.update(message.id, { hold: null });
      return null;
    });
  }

  /** The policy of `number` on `channel` today, its counts and restriction. */
  allowanceOf(number: SenderNumberView, channel: Channel): Promise<NumberAllowance> {
    return this.#allowanceIn(this.options.store, number, channel, this.options.clock.now());
  }

  async #allowanceIn(
    repos: Repositories,
    number: SenderNumberView,
    channel: Channel,
    now: number,
  ): Promise<NumberAllowance> {
    const { day } = this.options;
    const today = day.dayOf(now);
    const [own, inherited, usage, restriction, pauses] = await Promise.all([
      repos.sendPolicies.findPolicy('number', number.id),
      repos.sendPolicies.findPolicy('instance', number.instanceId),
      repos.sendPolicies.usageOfDay(number.id, channel, today),
      repos.sendPolicies.findRestriction(number.id),
      repos.sendPolicies.findPauses(number.id),
    ]);
    const created = day.dayOf(number.createdAt.getTime());
    const carrier = await repos.instances.findById(
      number.channelInstances[channel] ?? number.instanceId,
    );
    const defaults = defaultsFor(carrier?.provider, channel);
    const policy = effectivePolicy(own, inherited, channel, created, today, defaults);
    const until = restriction?.restrictedUntil ?? null;
    const restricted = until !== null && until > now && channel === 'whatsapp';
    return {
      policy,
      usage,
      restrictedUntil: restricted ? until : null,
      restriction: restricted
        ? { code: restriction?.code ?? null, reason: restriction?.reason ?? null }
        : null,
      paused: pauseOf(pauses, channel),
    };
  }

  async #isCold(
    tx: Repositories,
    message: MessageRecord,
    number: SenderNumberView,
  ): Promise<boolean> {
    if (message.to === null || message.isGroup) return false;
    const to = message.to;
    const [wrote, answered] = await Promise.all([
      tx.sendPolicies.hasWritten(message.customerId, message.from, to),
      tx.sendPolicies.hasSentTo(number.id, to),
    ]);
    return !wrote && !answered;
  }
}

/** The recipient a send counts against: its address, else its chat. */
function recipientOf(message: MessageRecord): string {
  return message.to ?? message.conversationId ?? message.providerChatId ?? '';
}

/** The pause of `channel` among a number's pause records, null when it is not paused. */
function pauseOf(
  pauses: readonly NumberPauseRecord[],
  channel: Channel,
): { since: number; reason: string } | null {
  const pause = pauses.find((p) => p.channel === channel);
  if (pause?.pausedAt == null) return null;
  return { since: pause.pausedAt, reason: pause.reason ?? 'deliveries stalling' };
}

function sameHold(a: StoredHold | null | undefined, b: StoredHold): boolean {
  return a?.code === b.code && a.until === b.until;
}
