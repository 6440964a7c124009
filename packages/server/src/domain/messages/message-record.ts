import type { MessageRecord } from '../../store/message-repository';
import { DomainError } from '../domain-error';

/** The fields of `record` that change over a message's life, as a repository patch. */
export function patchOf(record: MessageRecord) {
  return {
    status: record.status,
    channel: record.channel,
    text: record.text,
    fallbackTriggered: record.fallbackTriggered,
    externalId: record.externalId,
    errorCode: record.errorCode,
    errorMessage: record.errorMessage,
    retryCount: record.retryCount,
    timeline: record.timeline,
    correlationId: record.correlationId,
    updatedAt: record.updatedAt,
  };
}

/** The 404 of a message that does not exist for the caller. */
export function notFound(id: string): DomainError {
  return new DomainError('NOT_FOUND', `No message ${id} exists`);
}

/**
 * The message when the customer can see it: deleted messages and suppressed verification codes
 * answer 404 exactly like missing ones (and like other customers' messages, which the caller's
 * customer-scoped look-up never finds).
 */
export function visible(message: MessageRecord | undefined, id: string): MessageRecord {
  if (!message || message.deletedAt !== null || message.suppressed) throw notFound(id);
  return message;
}
