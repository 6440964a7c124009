import type { Webhook, WebhookDelivery } from '@switchboard/contract';
import type { DeliveryRecord } from '../../store/delivery-repository';
import type { WebhookRecord } from '../../store/webhook-repository';

/** The API shape of a webhook: never its secret. */
export function toWebhookView(record: WebhookRecord): Webhook {
  return {
    id: record.id,
    name: record.name,
    url: record.url,
    events: record.events,
    active: record.active,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

/** The API shape of one delivery attempt (of a webhook: callback attempts are not listed). */
export function toDeliveryView(record: DeliveryRecord & { webhookId: string }): WebhookDelivery {
  return {
    id: record.id,
    webhookId: record.webhookId,
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
