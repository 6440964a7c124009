import type { EventType } from '@switchboard/contract';
import type { DeliveryRecord } from './delivery-repository';

/** An event as stored: the serialized body plus what routing and the delivery log need. */
export interface EventRecord {
  /** `evt_<uuid v7>` (`evt_test_…` for webhook tests). */
  id: string;
  /** The owning customer. */
  customerId: string;
  /** The event type. */
  type: EventType;
  /** The exact JSON receivers get (envelope, or the flat FaceTime body). */
  payload: string;
  /** Sent as `X-Correlation-Id` with every delivery of the event. */
  correlationId: string;
  /** The message the event is about, if any. */
  messageId: string | null;
  /** The message's own `callbackUrl`, if any. */
  callbackUrl: string | null;
  /** When it was recorded. */
  createdAt: Date;
}

/** A page of one message's events: at most `limit`, after `after` (by time, then id). */
export interface MessageEventPageQuery {
  /** At most this many events. */
  limit: number;
  /** Only events recorded after this one (the cursor). */
  after?: { createdAt: Date; id: string };
}

/** The event log (the outbox). Every query is scoped by customer. */
export interface EventRepository {
  /**
   * Appends an event and queues `firstAttempts`, the first attempts of its delivery, with it (one
   * statement on PostgreSQL for the usual one attempt or none).
   */
  insert(event: EventRecord, firstAttempts?: readonly DeliveryRecord[]): Promise<void>;
  /** The customer's event with this id. */
  findById(customerId: string, id: string): Promise<EventRecord | undefined>;
  /**
   * The customer's events recorded after `after` (by time, then id), oldest first, at most
   * `limit`, without the webhook tests (they go to one webhook only): the replay of a stream.
   */
  listAfter(
    customerId: string,
    after: { createdAt: Date; id: string },
    limit: number,
  ): Promise<EventRecord[]>;
  /**
   * The customer's events about one message, oldest first (by time, then id), one page: a seek on
   * the partial index `events_message_idx`, never a scan of the customer's events.
   */
  listByMessage(
    customerId: string,
    messageId: string,
    query: MessageEventPageQuery,
  ): Promise<EventRecord[]>;
}
