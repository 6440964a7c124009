import { and, asc, desc, eq } from 'drizzle-orm';
import type { MessagePartRecord, MessagePartRepository } from '../message-part-repository';
import { first, type PgExecutor } from './pg-executor';
import { messageParts } from './pg-schema-messages';

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
    return this.run((db) =>
      db
        .select()
        .from(messageParts)
        .where(
          and(eq(messageParts.instanceId, instanceId), eq(messageParts.externalId, externalId)),
        )
        .orderBy(desc(messageParts.attemptId))
        .limit(1)
        .then(first),
    );
  }

  listByAttempt(attemptId: string): Promise<MessagePartRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(messageParts)
        .where(eq(messageParts.attemptId, attemptId))
        .orderBy(asc(messageParts.partIndex)),
    );
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
