import type { ProviderFailure } from '@switchboard/provider-kit';
import type { MessageRecord } from '../../store/message-repository';
import type { UnitOfWork } from '../../store/store';

/**
 * WhatsApp's codes that mean the account may not start new chats: 463 (restricted, or no
 * privacy token for the contact; see provider-baileys `whatsapp-errors.ts`).
 */
const RESTRICTION_CODES: ReadonlySet<string> = new Set(['463']);

/** How the restricted state is entered and left (decision 0621). */
export interface RestrictionRule {
  /** Refusals with a restriction code within {@link windowMs} that restrict the number. */
  strikes: number;
  /** The window the refusals are counted in. */
  windowMs: number;
  /** How long cold-contact sends hold once restricted. */
  periodMs: number;
}

/** 3 refusals within an hour restrict the number for 24 hours (decision 0621). */
const DEFAULT_RESTRICTION_RULE: RestrictionRule = {
  strikes: 3,
  windowMs: 60 * 60 * 1000,
  periodMs: 24 * 60 * 60 * 1000,
};

/**
 * Learns from failed WhatsApp sends: each refusal carrying a restriction code is a strike on its
 * sender number; {@link RestrictionRule.strikes} within the window put the number into the
 * restricted state until the period ends (it then resumes by itself: nothing is cleared, the
 * time just passes). Runs in the transaction that fails the message.
 */
export class NumberRestrictions {
  /** Restrictions under `rule`. */
  constructor(private readonly rule: RestrictionRule = DEFAULT_RESTRICTION_RULE) {}

  /** Records `message`'s failure (`error`) at `now` when it is a restriction refusal. */
  async recordFailure(
    tx: UnitOfWork,
    message: MessageRecord,
    error: ProviderFailure | undefined,
    now: number,
  ): Promise<void> {
    const code = error?.providerCode;
    if (message.channel !== 'whatsapp' || code === undefined || !RESTRICTION_CODES.has(code))
      return;
    const number = await tx.numbers.findByAddress(message.customerId, message.from);
    if (!number) return;
    const known = await tx.sendPolicies.findRestriction(number.id);
    const strikes = [...(known?.strikes ?? []), now].filter((at) => at > now - this.rule.windowMs);
    const restricting = strikes.length >= this.rule.strikes;
    const stillRestricted = known?.restrictedUntil != null && known.restrictedUntil > now;
    await tx.sendPolicies.putRestriction({
      numberId: number.id,
      strikes,
      restrictedUntil: restricting
        ? now + this.rule.periodMs
        : stillRestricted
          ? (known?.restrictedUntil ?? null)
          : null,
      code: restricting || stillRestricted ? code : null,
      reason: restricting || stillRestricted ? (error?.message ?? null) : null,
      updatedAt: now,
    });
  }
}
