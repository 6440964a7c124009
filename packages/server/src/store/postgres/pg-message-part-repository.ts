import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { MessagePartRecord, MessagePartRepository } from '../message-part-repository';
import { first, type PgExecutor } from './pg-executor';
import { pgPreparedQuery } from './pg-prepared-query';
import { messageParts } from './pg-schema-messages';

/** The parts of one attempt, in order. */
const partsOfAttempt = pgPreparedQuery((db) =>
  db
    .select()
    .from(messageParts)
    .where(eq(messageParts.attemptId, sql.placeholder('attemptId')))
    .orderBy(asc(messageParts.partIndex))
    .prepare(''),
);

/** The part an instance's message id names, of the newest attempt that has it. */
const partByExternalId = pgPreparedQuery((db) =>
  db
    .select()
    .from(messageParts)
    .where(
      and(
        eq(messageParts.instanceId, sql.placeholder('instanceId')),
        eq(messageParts.externalId, sql.placeholder('externalId')),
      ),
    )
    .orderBy(desc(messageParts.attemptId))
    .limit(1)
    .prepare(''),
);

/** {@link MessagePartRepository} on PostgreSQL. */
export class PgMessagePartRepository implements MessagePartRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insertAll(parts: readonly MessagePartRecord[]): Promise<void> {
    return this.run(async (db) => {
      if (parts.length > 0)
        await db
          .insert(messageParts)
          .values([...parts])
          .onConflictDoNothing();
    });
  }

  findByExternalId(instanceId: string, externalId: string): Promise<MessagePartRecord | undefined> {
    return this.run(async (db) =>
      first(await partByExternalId(db).execute({ instanceId, externalId })),
    );
  }

  listByAttempt(attemptId: string): Promise<MessagePartRecord[]> {
    return this.run((db) => partsOfAttempt(db).execute({ attemptId }));
  }

  updateStatus(
    attemptId: string,
    partIndex: number,
    status: NonNullable<MessagePartRecord['status']>,
    error: { code: string; message: string } | null,
  ): Promise<void> {
    return this.run(async (db) => {
      await db
        .update(messageParts)
        .set({ status, errorCode: error?.code ?? null, errorMessage: error?.message ?? null })
        .where(and(eq(messageParts.attemptId, attemptId), eq(messageParts.partIndex, partIndex)));
    });
  }
}
