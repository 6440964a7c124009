import { newUuid } from '../ids';
import type { DeliveryRecord } from '../store/delivery-repository';

/** What sets one queued attempt apart; everything about its outcome starts empty. */
export type PendingDeliveryInput = Pick<
  DeliveryRecord,
  'customerId' | 'webhookId' | 'targetUrl' | 'eventId' | 'eventType' | 'attempt' | 'trigger'
> & {
  /** When it is queued. */
  createdAt: Date;
  /** When it is due. */
  nextAttemptAt: Date;
};

/**
 * A new `pending` delivery attempt: the unit of durable webhook work, whether it is an event's
 * first attempt, a retry, a redelivery or a test.
 */
export function pendingDelivery(input: PendingDeliveryInput): DeliveryRecord {
  return {
    id: newUuid(),
    customerId: input.customerId,
    webhookId: input.webhookId,
    targetUrl: input.targetUrl,
    eventId: input.eventId,
    eventType: input.eventType,
    attempt: input.attempt,
    trigger: input.trigger,
    status: 'pending',
    statusCode: null,
    durationMs: null,
    error: null,
    responseBody: null,
    createdAt: input.createdAt,
    attemptedAt: null,
    nextAttemptAt: input.nextAttemptAt,
    leaseOwner: null,
    leaseUntil: null,
  };
}
