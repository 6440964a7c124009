import type { CallbackDelivery } from '@switchboard/contract';
import type { DeliveryRecord } from '../../store/delivery-repository';

/** The API shape of one attempt to a message's `callbackUrl`. */
export function toCallbackDeliveryView(record: DeliveryRecord): CallbackDelivery {
  return {
    id: record.id,
    url: record.targetUrl ?? '',
    eventId: record.eventId,
    eventType: record.eventType,
    attempt: record.attempt,
    trigger: record.trigger,
    status: record.status,
    statusCode: record.statusCode,
    durationMs: record.durationMs,
    error: record.error,
    responseBody: record.responseBody,
    createdAt: record.createdAt.toISOString(),
    attemptedAt: record.attemptedAt?.toISOString() ?? null,
    nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
  };
}
