import { and, desc, eq, sql } from 'drizzle-orm';
import type {
  EarlyStatusUpdate,
  MessageAttemptRecord,
  MessageAttemptRepository,
  StatusTarget,
} from '../message-attempt-repository';
import type { PgExecutor } from './pg-executor';
import { toRecord } from './pg-message-repository';
import {
  pgPreparedQuery,
  preparedFirstBy,
  preparedInsert,
  preparedUpdate,
} from './pg-prepared-query';
import { messageAttempts, messageParts, messages } from './pg-schema-messages';

const insertAttempt = preparedInsert(messageAttempts, { onConflictDoNothing: true });

const attemptById = preparedFirstBy(messageAttempts, { attemptId: messageAttempts.attemptId });
const updateAttempt = preparedUpdate(messageAttempts, () =>
  eq(messageAttempts.attemptId, sql.placeholder('$attemptId')),
);
const recordAccepted = pgPreparedQuery((db) =>
  db
    .update(messageAttempts)
    .set({ externalId: sql`${sql.placeholder('externalId')}` })
    .where(eq(messageAttempts.attemptId, sql.placeholder('attemptId')))
    .returning({ earlyUpdates: messageAttempts.earlyUpdates })
    .prepare(''),
);

/**
 * An attempt, its message, and the part of the newest attempt that the instance's provider id
 * names (whichever attempt that is): what a status update echoing its attempt needs, in one
 * round trip.
 */
const statusTarget = pgPreparedQuery((db) =>
  db
    .select({ attempt: messageAttempts, message: messages, part: messageParts })
    .from(messageAttempts)
    .leftJoin(messages, eq(messages.id, messageAttempts.messageId))
    .leftJoin(
      messageParts,
      and(
        eq(messageParts.instanceId, sql.placeholder('instanceId')),
        eq(messageParts.externalId, sql.placeholder('externalId')),
      ),
    )
    .where(eq(messageAttempts.attemptId, sql.placeholder('attemptId')))
    .orderBy(desc(messageParts.attemptId))
    .limit(1)
    .prepare(''),
);

/** {@link MessageAttemptRepository} on PostgreSQL. */
export class PgMessageAttemptRepository implements MessageAttemptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(attempt: Omit<MessageAttemptRecord, 'earlyUpdates'>): Promise<void> {
    return this.run(async (db) => {
      await insertAttempt(db, attempt);
    });
  }

  findById(attemptId: string): Promise<MessageAttemptRecord | undefined> {
    return this.run((db) => attemptById(db, { attemptId }));
  }

  findStatusTarget(
    attemptId: string,
    instanceId: string,
    externalId: string,
  ): Promise<StatusTarget | undefined> {
    return this.run(async (db) => {
      const [row] = await statusTarget(db).execute({ attemptId, instanceId, externalId });
      return (
        row && {
          attempt: row.attempt,
          message: row.message ? toRecord(row.message) : undefined,
          part: row.part ?? undefined,
        }
      );
    });
  }

  recordAccepted(attemptId: string, externalId: string): Promise<EarlyStatusUpdate[]> {
    return this.run(async (db) => {
      const [row] = await recordAccepted(db).execute({ attemptId, externalId });
      return row?.earlyUpdates ?? [];
    });
  }

  setEarlyUpdates(attemptId: string, updates: EarlyStatusUpdate[] | null): Promise<void> {
    return this.run(async (db) => {
      await updateAttempt(db, { earlyUpdates: updates }, { $attemptId: attemptId });
    });
  }

  lock(attemptId: string): Promise<void> {
    return this.run(async (db) => {
      // A write, not FOR UPDATE: at REPEATABLE READ only a row another transaction changed
      // makes a later one fail and run again on a fresh snapshot; a row it merely locked does not.
      await db
        .update(messageAttempts)
        .set({ attempt: sql`${messageAttempts.attempt}` })
        .where(eq(messageAttempts.attemptId, attemptId));
    });
  }
}
