import { and, desc, eq, sql } from 'drizzle-orm';
import type { MessageAttemptRecord, MessageAttemptRepository } from '../message-attempt-repository';
import type { SqliteExecutor } from './executor';
import { preparedQuery } from './prepared-query';
import { messageAttempts } from './schema-messages';

const attemptById = preparedQuery((db) =>
  db
    .select()
    .from(messageAttempts)
    .where(eq(messageAttempts.attemptId, sql.placeholder('attemptId')))
    .prepare(),
);

/** {@link MessageAttemptRepository} on SQLite. */
export class SqliteMessageAttemptRepository implements MessageAttemptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(attempt: MessageAttemptRecord): Promise<void> {
    return this.run((db) => {
      db.insert(messageAttempts).values(attempt).onConflictDoNothing().run();
    });
  }

  findById(attemptId: string): Promise<MessageAttemptRecord | undefined> {
    return this.run((db) => attemptById(db).get({ attemptId }));
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
        .get(),
    );
  }

  setExternalId(attemptId: string, externalId: string): Promise<void> {
    return this.run((db) => {
      db.update(messageAttempts)
        .set({ externalId })
        .where(eq(messageAttempts.attemptId, attemptId))
        .run();
    });
  }
}
