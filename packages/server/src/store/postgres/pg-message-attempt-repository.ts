import { and, desc, eq, sql } from 'drizzle-orm';
import type { MessageAttemptRecord, MessageAttemptRepository } from '../message-attempt-repository';
import { first, type PgExecutor } from './pg-executor';
import { preparedFirstBy, preparedInsert, preparedUpdate } from './pg-prepared-query';
import { messageAttempts } from './pg-schema-messages';

const insertAttempt = preparedInsert(messageAttempts, { onConflictDoNothing: true });

const attemptById = preparedFirstBy(messageAttempts, { attemptId: messageAttempts.attemptId });
const setExternalId = preparedUpdate(messageAttempts, () =>
  eq(messageAttempts.attemptId, sql.placeholder('$attemptId')),
);

/** {@link MessageAttemptRepository} on PostgreSQL. */
export class PgMessageAttemptRepository implements MessageAttemptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(attempt: MessageAttemptRecord): Promise<void> {
    return this.run(async (db) => {
      await insertAttempt(db, attempt);
    });
  }

  findById(attemptId: string): Promise<MessageAttemptRecord | undefined> {
    return this.run((db) => attemptById(db, { attemptId }));
  }

  findByExternalId(
    instanceId: string,
    externalId: string,
  ): Promise<MessageAttemptRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(messageAttempts)
        .where(
          and(
            eq(messageAttempts.instanceId, instanceId),
            eq(messageAttempts.externalId, externalId),
          ),
        )
        .orderBy(desc(messageAttempts.createdAt))
        .limit(1)
        .then(first),
    );
  }

  setExternalId(attemptId: string, externalId: string): Promise<void> {
    return this.run(async (db) => {
      await setExternalId(db, { externalId }, { $attemptId: attemptId });
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
