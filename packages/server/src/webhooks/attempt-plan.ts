import type { DeliveryRecord, DeliveryResult } from '../store/delivery-repository';
import type { DeliveryOutcome } from './delivery-client';
import { pendingDelivery } from './pending-delivery';
import { nextAttemptDelay, type RetrySchedule } from './retry-schedule';

/** What an attempt's outcome does to the webhook's exhausted-chain streak. */
type StreakEffect = 'reset' | 'exhausted' | 'unchanged';

/** Everything to record after one attempt. */
export interface AttemptPlan {
  /** The attempt's final state. */
  result: DeliveryResult;
  /** The next attempt of the chain, when one is scheduled. */
  followUp: DeliveryRecord | null;
  /** The effect on the webhook's streak (ignored for callback URLs). */
  streak: StreakEffect;
}

/** Input of {@link planAttempt}. */
export interface PlanAttemptInput {
  /** The attempt that was made. */
  delivery: DeliveryRecord;
  /** How it ended. */
  outcome: DeliveryOutcome;
  /** When the request was sent. */
  attemptedAt: Date;
  /** Now, epoch milliseconds: the base of the next attempt's due time. */
  now: number;
  /** The retry schedule in force. */
  schedule: RetrySchedule;
}

/** Triggers that make exactly one attempt: an operator's test or redelivery is never retried. */
const SINGLE_ATTEMPT_TRIGGERS = new Set<DeliveryRecord['trigger']>(['test', 'redelivery']);

/** Characters of a receiver's response body the delivery log keeps. */
const RESPONSE_EXCERPT_CHARS = 1024;

/**
 * The start of a response body as the delivery log keeps it: at most
 * {@link RESPONSE_EXCERPT_CHARS} characters, null when there was none (or it was empty).
 */
function responseExcerpt(body: string | null): string | null {
  if (body === null || body.length === 0) return null;
  if (body.length <= RESPONSE_EXCERPT_CHARS) return body;
  // Never half a surrogate pair: an emoji at the cut goes whole or not at all.
  const last = body.charCodeAt(RESPONSE_EXCERPT_CHARS - 1);
  const end =
    last >= 0xd800 && last <= 0xdbff ? RESPONSE_EXCERPT_CHARS - 1 : RESPONSE_EXCERPT_CHARS;
  return body.slice(0, end);
}

/**
 * Decides what an attempt's outcome means, per the spec: 2xx delivered (resets the streak); other
 * 4xx terminal (failed once, no effect on the streak); a retryable failure schedules the next
 * attempt of the chain (honouring `Retry-After`) or, after the last one, fails and counts one
 * exhausted chain. Test and redelivery attempts are single: a failure is final and counts nothing.
 */
export function planAttempt(input: PlanAttemptInput): AttemptPlan {
  const { delivery, outcome, attemptedAt } = input;
  const recorded = {
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    error: outcome.error,
    responseBody: responseExcerpt(outcome.responseBody),
    attemptedAt,
  };
  if (outcome.kind === 'delivered') {
    return {
      result: { ...recorded, status: 'delivered', error: null, nextAttemptAt: null },
      followUp: null,
      streak: 'reset',
    };
  }
  const final = { ...recorded, status: 'failed' as const, nextAttemptAt: null };
  if (outcome.kind === 'terminal' || SINGLE_ATTEMPT_TRIGGERS.has(delivery.trigger)) {
    return { result: final, followUp: null, streak: 'unchanged' };
  }
  const delay = nextAttemptDelay({
    attemptNumber: delivery.attempt,
    retryAfter: outcome.retryAfter,
    now: input.now,
    schedule: input.schedule,
  });
  if (delay === null) return { result: final, followUp: null, streak: 'exhausted' };
  const nextAttemptAt = new Date(input.now + delay);
  return {
    result: { ...recorded, status: 'retrying', nextAttemptAt },
    followUp: pendingDelivery({
      ...delivery,
      attempt: delivery.attempt + 1,
      trigger: 'retry',
      createdAt: new Date(input.now),
      nextAttemptAt,
    }),
    streak: 'unchanged',
  };
}
