import type { EventType, SwitchboardEventOf } from '@switchboard/contract';
import type { UnitOfWork } from '../store/store';

/**
 * The body of an event of type `T` without its `id` (and, for envelope events, without
 * `timestamp`): `data` for envelope events; the flat fields for `facetime.*` events.
 * The recorder mints `id` (`evt_<uuid v7>`) and `timestamp` from the clock.
 */
type NewEventBody<T extends EventType> = T extends 'facetime.incoming' | 'facetime.status_changed'
  ? Omit<SwitchboardEventOf<T>, 'type' | 'eventId'>
  : SwitchboardEventOf<T> extends { data: infer D }
    ? { data: D }
    : never;

/** An event a domain change produces, before it is recorded. */
export type NewEvent<T extends EventType = EventType> = {
  /** The customer the event belongs to: it never reaches anyone else. */
  customerId: string;
  /** The event type. */
  type: T;
  /** The correlation id of the request that caused the change (or one minted for it). */
  correlationId: string;
  /** A message's own `callbackUrl`: the event is delivered there too, signed like a webhook. */
  callbackUrl?: string | null;
  /** The message the event is about, when there is one (for the delivery log and look-ups). */
  messageId?: string | null;
} & NewEventBody<T>;

/** An event as recorded: the exact bytes every webhook and stream subscriber receives. */
export interface RecordedEvent {
  /** `evt_<uuid v7>` (`evt_test_…` for webhook tests). */
  readonly id: string;
  /** The event type. */
  readonly type: EventType;
  /** The owning customer. */
  readonly customerId: string;
  /** The serialized event (envelope, or flat body for FaceTime): signed and sent as is. */
  readonly payload: string;
  /** Correlation id carried in `X-Correlation-Id` on deliveries. */
  readonly correlationId: string;
  /** Per-message webhook URL, if any. */
  readonly callbackUrl: string | null;
  /** The message the event is about, if any. */
  readonly messageId: string | null;
  /** When the event was recorded (ISO 8601). */
  readonly createdAt: string;
}

/**
 * Records events in the caller's transaction (the outbox): an event exists exactly when the state
 * change that caused it committed. Subscribers of the live stream are told after the commit;
 * webhook deliveries are queued durably in the same transaction.
 *
 * Implemented by the events work (`event-service.ts`); the domain only depends on this interface.
 */
export interface EventRecorder {
  /**
   * Records one event inside `tx` and returns it. Call it in the same transaction as the state
   * change it reports.
   * @example await events.record(tx, { customerId, type: 'message.queued', correlationId, data });
   */
  record<T extends EventType>(tx: UnitOfWork, event: NewEvent<T>): Promise<RecordedEvent>;
}
