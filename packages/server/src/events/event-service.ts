import {
  type EventType,
  STREAM_ONLY_EVENT_TYPES,
  type WebhookTestData,
} from '@switchboard/contract';
import type { Clock } from '../clock';
import { newCorrelationId, newId, newUuid } from '../ids';
import type { DeliveryRecord } from '../store/delivery-repository';
import type { EventRecord } from '../store/event-repository';
import type { UnitOfWork } from '../store/store';
import { pendingDelivery } from '../webhooks/pending-delivery';
import type { EventBus } from './event-bus';
import { InvalidEventError, serializeEvent } from './event-payload';
import type { EventRecorder, NewEvent, RecordedEvent } from './event-recorder';

function isStreamOnly(type: EventType): boolean {
  return (STREAM_ONLY_EVENT_TYPES as readonly string[]).includes(type);
}

/** A stored event as the bus and the stream carry it. */
export function toRecorded(record: EventRecord): RecordedEvent {
  return {
    id: record.id,
    type: record.type,
    customerId: record.customerId,
    payload: record.payload,
    correlationId: record.correlationId,
    callbackUrl: record.callbackUrl,
    messageId: record.messageId,
    createdAt: record.createdAt.toISOString(),
  };
}

/** A first attempt queued for one receiver, due now. */
function firstAttempt(
  event: EventRecord,
  target: { webhookId: string } | { targetUrl: string },
  now: Date,
): DeliveryRecord {
  return pendingDelivery({
    customerId: event.customerId,
    webhookId: 'webhookId' in target ? target.webhookId : null,
    targetUrl: 'targetUrl' in target ? target.targetUrl : null,
    eventId: event.id,
    eventType: event.type,
    attempt: 1,
    trigger: 'event',
    createdAt: now,
    nextAttemptAt: now,
  });
}

/** A `webhook.test` event recorded for one webhook, with its attempt. */
export interface RecordedTestEvent {
  /** The event (`evt_test_…`). */
  event: RecordedEvent;
  /** The id of its (single) delivery attempt. */
  deliveryId: string;
}

/** What the observers of committed events learn of each. */
export interface CommittedEvent {
  /** The event type. */
  type: EventType;
  /** The channel in its data, when it has one. */
  channel: string | null;
}

/**
 * The one event pipeline (implements {@link EventRecorder}): each event is validated against the
 * contract, serialized once and appended to the event log in the caller's transaction, with one
 * durable delivery attempt per subscribed active webhook and one for the message's `callbackUrl`.
 * Once the transaction commits, the event goes to the {@link EventBus} (live stream) and the
 * webhook dispatcher is handed its attempts; a rollback leaves no trace of it anywhere.
 */
export class EventService implements EventRecorder {
  readonly #queuedListeners = new Set<(deliveries: readonly DeliveryRecord[]) => void>();
  readonly #committedListeners = new Set<(event: CommittedEvent) => void>();

  /** Creates the service; `bus` carries committed events to the live stream. */
  constructor(
    private readonly clock: Clock,
    /** The bus the live stream subscribes to. */
    readonly bus: EventBus,
  ) {}

  /**
   * Calls `listener` with the attempts an event queued, after the commit that queued them (the
   * dispatcher takes them at once instead of at the next poll).
   * @returns a function that removes the listener.
   */
  onDeliveriesQueued(listener: (deliveries: readonly DeliveryRecord[]) => void): () => void {
    this.#queuedListeners.add(listener);
    return () => this.#queuedListeners.delete(listener);
  }

  /**
   * Calls `listener` with the type (and the channel, when the event has one) of every event once
   * it is committed (the metrics count them).
   * @returns a function that removes the listener.
   */
  onCommitted(listener: (event: CommittedEvent) => void): () => void {
    this.#committedListeners.add(listener);
    return () => this.#committedListeners.delete(listener);
  }

  async record<T extends EventType>(tx: UnitOfWork, event: NewEvent<T>): Promise<RecordedEvent> {
    if (event.type === 'webhook.test') {
      throw new InvalidEventError('webhook.test events are sent by the webhook test, not recorded');
    }
    const now = new Date(this.clock.now());
    const id = newId('evt');
    const record: EventRecord = {
      id,
      customerId: event.customerId,
      type: event.type,
      payload: serializeEvent(event as NewEvent, id, now),
      correlationId: event.correlationId === '' ? newCorrelationId() : event.correlationId,
      messageId: event.messageId ?? null,
      callbackUrl: event.callbackUrl ?? null,
      createdAt: now,
    };
    const deliveries: DeliveryRecord[] = [];
    // `whatsapp.status` is delivered on the event stream only, never to a URL.
    if (!isStreamOnly(record.type)) {
      const subscribed = await tx.webhooks.listActiveSubscribedIds(record.customerId, record.type);
      for (const webhookId of subscribed) {
        deliveries.push(firstAttempt(record, { webhookId }, now));
      }
      if (record.callbackUrl !== null) {
        deliveries.push(firstAttempt(record, { targetUrl: record.callbackUrl }, now));
      }
    }
    // The event and its first attempts in one write (one statement on PostgreSQL).
    await tx.events.insert(record, deliveries);

    const recorded = toRecorded(record);
    tx.afterCommit(() => {
      this.bus.publish(recorded);
      if (deliveries.length > 0) this.#notifyQueued(deliveries);
      if (this.#committedListeners.size > 0) {
        const data = 'data' in event ? (event.data as { channel?: unknown }) : undefined;
        const channel = data?.channel;
        const committed: CommittedEvent = {
          type: record.type,
          channel: typeof channel === 'string' ? channel : null,
        };
        for (const listener of this.#committedListeners) listener(committed);
      }
    });
    return recorded;
  }

  /**
   * Records a synthetic `webhook.test` event (`evt_test_…`) for one webhook and its single
   * attempt, due after `holdMs` so that the caller can make the attempt itself first (the
   * dispatcher only picks it up if the caller crashed). It goes to that webhook only: not to
   * other webhooks, not to the stream.
   */
  async recordTest(
    tx: UnitOfWork,
    input: { customerId: string; webhookId: string; correlationId: string; holdMs: number },
  ): Promise<RecordedTestEvent> {
    const now = new Date(this.clock.now());
    const id = `evt_test_${newUuid()}`;
    const data: WebhookTestData = {
      message: 'This is a test event from Switchboard.',
      webhookId: input.webhookId,
    };
    const record: EventRecord = {
      id,
      customerId: input.customerId,
      type: 'webhook.test',
      payload: serializeEvent(
        { customerId: input.customerId, type: 'webhook.test', correlationId: '', data },
        id,
        now,
      ),
      correlationId: input.correlationId,
      messageId: null,
      callbackUrl: null,
      createdAt: now,
    };
    const attempt: DeliveryRecord = {
      ...firstAttempt(record, { webhookId: input.webhookId }, now),
      trigger: 'test',
      nextAttemptAt: new Date(now.getTime() + input.holdMs),
    };
    await tx.events.insert(record, [attempt]);
    return { event: toRecorded(record), deliveryId: attempt.id };
  }

  #notifyQueued(deliveries: readonly DeliveryRecord[]): void {
    for (const listener of this.#queuedListeners) listener(deliveries);
  }
}
