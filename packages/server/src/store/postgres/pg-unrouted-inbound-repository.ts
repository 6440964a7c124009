import { and, asc, count, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type {
  UnroutedAddressCount,
  UnroutedInboundFilter,
  UnroutedInboundRecord,
  UnroutedInboundRepository,
} from '../unrouted-inbound-repository';
import type { PgExecutor } from './pg-executor';
import { unroutedInbound } from './pg-schema-unrouted';

/** The condition of a filter; undefined matches everything. */
function whereOf(filter: UnroutedInboundFilter): SQL | undefined {
  return and(
    filter.instanceId === undefined ? undefined : eq(unroutedInbound.instanceId, filter.instanceId),
    filter.address === undefined ? undefined : eq(unroutedInbound.address, filter.address),
  );
}

/** {@link UnroutedInboundRepository} on PostgreSQL; the payload is sealed by `cipher`. */
export class PgUnroutedInboundRepository implements UnroutedInboundRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: PgExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  insert(record: UnroutedInboundRecord): Promise<void> {
    const sealed = { ...record, payload: this.cipher.encrypt(record.payload) };
    return this.run(async (db) => {
      await db.insert(unroutedInbound).values(sealed).onConflictDoNothing();
    });
  }

  list(filter: UnroutedInboundFilter, limit: number): Promise<UnroutedInboundRecord[]> {
    return this.run(async (db) =>
      (
        await db
          .select()
          .from(unroutedInbound)
          .where(whereOf(filter))
          .orderBy(asc(unroutedInbound.receivedAt), asc(unroutedInbound.id))
          .limit(limit)
      ).map((row) => ({ ...row, payload: this.cipher.decrypt(row.payload) })),
    );
  }

  count(filter: UnroutedInboundFilter): Promise<number> {
    return this.run(
      async (db) =>
        (await db.select({ n: count() }).from(unroutedInbound).where(whereOf(filter)))[0]?.n ?? 0,
    );
  }

  countByAddress(): Promise<UnroutedAddressCount[]> {
    return this.run((db) =>
      db
        .select({
          instanceId: unroutedInbound.instanceId,
          address: unroutedInbound.address,
          count: count(),
        })
        .from(unroutedInbound)
        .groupBy(unroutedInbound.instanceId, unroutedInbound.address)
        .orderBy(desc(count()), asc(unroutedInbound.address)),
    );
  }

  delete(id: string): Promise<boolean> {
    return this.run(
      async (db) =>
        (
          await db
            .delete(unroutedInbound)
            .where(eq(unroutedInbound.id, id))
            .returning({ id: unroutedInbound.id })
        ).length > 0,
    );
  }

  deleteMatching(filter: UnroutedInboundFilter): Promise<number> {
    return this.run(
      async (db) =>
        (
          await db
            .delete(unroutedInbound)
            .where(whereOf(filter))
            .returning({ id: unroutedInbound.id })
        ).length,
    );
  }

  deleteBefore(before: Date): Promise<number> {
    return this.run(
      async (db) =>
        (
          await db
            .delete(unroutedInbound)
            .where(lt(unroutedInbound.receivedAt, before))
            .returning({ id: unroutedInbound.id })
        ).length,
    );
  }
}
