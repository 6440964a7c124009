import type { MessagePatch, MessageRecord } from '../../store/message-repository';
import { DomainError } from '../domain-error';

/** The fields of a message that change over its life (what {@link patchOf} writes). */
const CHANGING_FIELDS = [
  'status',
  'channel',
  'text',
  'fallbackTriggered',
  'externalId',
  'errorCode',
  'errorMessage',
  'retryCount',
  'timeline',
  'correlationId',
] as const satisfies ReadonlyArray<keyof MessagePatch>;

/**
 * The fields of `record` that change over a message's life, as a repository patch. Given
 * `before`, the message as stored (read in the same transaction, `record` built from it), only
 * the fields that differ from it, and always `updatedAt`: SQLite rewrites the entries of every
 * index over a column an update sets, changed or not, so a status step that leaves the status
 * alone (an attempt starting) or the provider id alone (`sent`, `delivered`) skips those indexes.
 * Fields are compared by identity; a record built by spreading `before` keeps its untouched
 * values, its timeline included.
 */
export function patchOf(record: MessageRecord, before?: MessageRecord): MessagePatch {
  const patch: Record<string, unknown> = { updatedAt: record.updatedAt };
  for (const field of CHANGING_FIELDS) {
    if (before === undefined || record[field] !== before[field]) patch[field] = record[field];
  }
  return patch as MessagePatch;
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
