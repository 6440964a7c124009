import type { Channel } from '@switchboard/contract';
import type { ProviderFailure } from '@switchboard/provider-kit';
import type { MessagePartRecord } from './message-part-repository';
import type { MessageRecord } from './message-repository';

/**
 * A provider status update that arrived before the send of its attempt was recorded as accepted
 * (a callback racing the send's response, or a part's callback while later parts are still being
 * sent): kept on the attempt, and applied once the send's provider id and parts are recorded.
 */
export type EarlyStatusUpdate = {
  /** The provider id the update is about (the send's, or one of its parts'). */
  externalId: string;
  /** In a group, the member the receipt is for. */
  recipient?: string;
  /** The channel the update came on. */
  channel: Channel;
  /** When the upstream says it happened, in epoch milliseconds. */
  occurredAt: number;
} & (
  | { status: 'sent' | 'delivered' | 'read' }
  | {
      status: 'failed';
      /** Why it failed. */
      error: ProviderFailure;
    }
);

/** One delivery attempt of a message on one channel. */
export interface MessageAttemptRecord {
  /**
   * `<messageId>:<attempt>:<channel>`: unique per (message, attempt, channel) and the same when a
   * crashed worker re-drives it, so upstreams that dedupe on it never send twice.
   */
  attemptId: string;
  /** The message. */
  messageId: string;
  /** Its customer. */
  customerId: string;
  /** The instance the attempt went through. */
  instanceId: string;
  /** The attempt number: 0 for the first send, then the retry count. */
  attempt: number;
  /** The channel tried. */
  channel: Channel;
  /** The provider's id, once the provider accepted the attempt. */
  externalId: string | null;
  /** Status updates that came before the provider id was recorded, oldest first; null: none. */
  earlyUpdates: EarlyStatusUpdate[] | null;
  /** When the attempt started. */
  createdAt: Date;
}

/** What a provider status update that echoes its attempt is about, read in one statement. */
export interface StatusTarget {
  /**
   * The part the instance's provider id names, of the newest attempt that has it (as
   * `MessagePartRepository.findByExternalId` answers it); undefined when none does.
   */
  part: MessagePartRecord | undefined;
  /** The attempt the update echoes. */
  attempt: MessageAttemptRecord;
  /** The attempt's message, in any customer, deleted or not; undefined when it is gone. */
  message: MessageRecord | undefined;
}

/** Delivery attempts: how provider status updates find their message. */
export interface MessageAttemptRepository {
  /** Records an attempt; recording the same attempt id again changes nothing. */
  insert(attempt: Omit<MessageAttemptRecord, 'earlyUpdates'>): Promise<void>;
  /** The attempt with this id. */
  findById(attemptId: string): Promise<MessageAttemptRecord | undefined>;
  /**
   * For a status update that names attempt `attemptId` and provider id `externalId` of
   * `instanceId`: the part that id names, the attempt and its message, in one read instead of
   * three (one round trip on PostgreSQL). Undefined when there is no such attempt (the part, if
   * any, is then read on its own).
   */
  findStatusTarget(
    attemptId: string,
    instanceId: string,
    externalId: string,
  ): Promise<StatusTarget | undefined>;
  /**
   * Records the provider id of an accepted attempt, and answers the status updates kept for it
   * while it had none (empty when there are none), in one statement.
   */
  recordAccepted(attemptId: string, externalId: string): Promise<EarlyStatusUpdate[]>;
  /**
   * Sets the status updates kept for an attempt that has no provider id yet (null: none). The
   * caller reads the attempt in the same transaction first and passes the whole list.
   */
  setEarlyUpdates(attemptId: string, updates: EarlyStatusUpdate[] | null): Promise<void>;
  /**
   * Serializes the calling transaction with every other transaction that locks the same attempt:
   * whatever one of them writes after the lock (a part's status), the next one sees. On
   * PostgreSQL, where transactions run at REPEATABLE READ, a row lock alone would make the second
   * transaction wait but keep its older snapshot, so the attempt's row is written (unchanged): the
   * second then fails with a serialization error and the store runs it again on a fresh snapshot.
   * On SQLite every transaction runs alone already, and this does nothing.
   */
  lock(attemptId: string): Promise<void>;
}
