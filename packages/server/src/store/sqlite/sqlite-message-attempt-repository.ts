import { and, desc, eq, sql } from 'drizzle-orm';
import type { MessageAttemptRecord, MessageAttemptRepository } from '../message-attempt-repository';
import type { SqliteExecutor } from './executor';
import { insertRow } from './prepared-insert';
import { preparedQuery } from './prepared-query';
import { updateRows } from './prepared-update';
import { messageAttempts } from './schema-messages';

const attemptById = preparedQuery((db) =>
  db
    .select()
    .from(messageAttempts)
    .where(eq(messageAttempts.attemptId, sql.placeholder('attemptId')))
    .prepare(),
);

const attemptByExternalId = preparedQuery((db) =>
  db
    .select()
    .from(messageAttempts)
    .where(
      and(
        eq(messageAttempts.instanceId, sql.placeholder('instanceId')),
        eq(messageAttempts.externalId, sql.placeholder('externalId')),
      ),
    )
    .orderBy(desc(messageAttempts.createdAt))
    .limit(1)
    .prepare(),
);

/** {@link MessageAttemptRepository} on SQLite. */
export class SqliteMessageAttemptRepository implements MessageAttemptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(attempt: MessageAttemptRecord): Promise<void> {
    return this.run((db) => {
      insertRow(db, messageAttempts, attempt, 'nothing');
    });
  }

  findById(attemptId: string): Promise<MessageAttemptRecord | undefined> {
    return this.run((db) => attemptById(db).get({ attemptId }));
  }

  findByExternalId(
    instanceId: string,
    externalId: string,
  ): Promise<MessageAttemptRecord | undefined> {
    return this.run((db) => attemptByExternalId(db).get({ instanceId, externalId }));
  }

  setExternalId(attemptId: string, externalId: string): Promise<void> {
    return this.run((db) => {
      updateRows(db, messageAttempts, { externalId }, { attemptId });
    });
  }

  lock(_attemptId: string): Promise<void> {
    // The writer runs one transaction at a time: the next one sees this one's writes.
    return Promise.resolve();
  }
}
