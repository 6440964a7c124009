import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import type { OptOutQuery, OptOutRecord, OptOutRepository } from '../opt-out-repository';
import type { PgExecutor } from './pg-executor';
import { preparedFirstBy } from './pg-prepared-query';
import { optOuts } from './pg-schema-opt-outs';

const optOutOf = preparedFirstBy(optOuts, {
  customerId: optOuts.customerId,
  sender: optOuts.sender,
  recipient: optOuts.recipient,
});

/** {@link OptOutRepository} on PostgreSQL. */
export class PgOptOutRepository implements OptOutRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  find(customerId: string, sender: string, recipient: string): Promise<OptOutRecord | undefined> {
    return this.run((db) => optOutOf(db, { customerId, sender, recipient }));
  }

  upsert(record: OptOutRecord): Promise<void> {
    const { customerId: _c, sender: _s, recipient: _r, createdAt: _a, ...changes } = record;
    return this.run(async (db) => {
      await db
        .insert(optOuts)
        .values(record)
        .onConflictDoUpdate({
          target: [optOuts.customerId, optOuts.sender, optOuts.recipient],
          set: changes,
        });
    });
  }

  list(customerId: string, query: OptOutQuery): Promise<OptOutRecord[]> {
    const conditions: (SQL | undefined)[] = [eq(optOuts.customerId, customerId)];
    if (query.status !== undefined) conditions.push(eq(optOuts.status, query.status));
    if (query.sender !== undefined) conditions.push(eq(optOuts.sender, query.sender));
    if (query.recipient !== undefined) conditions.push(eq(optOuts.recipient, query.recipient));
    const after = query.after;
    if (after) {
      const at = new Date(after.updatedAt);
      conditions.push(
        or(
          lt(optOuts.updatedAt, at),
          and(eq(optOuts.updatedAt, at), lt(optOuts.sender, after.sender)),
          and(
            eq(optOuts.updatedAt, at),
            eq(optOuts.sender, after.sender),
            lt(optOuts.recipient, after.recipient),
          ),
        ),
      );
    }
    return this.run((db) =>
      db
        .select()
        .from(optOuts)
        .where(and(...conditions))
        .orderBy(desc(optOuts.updatedAt), desc(optOuts.sender), desc(optOuts.recipient))
        .limit(query.limit),
    );
  }
}
