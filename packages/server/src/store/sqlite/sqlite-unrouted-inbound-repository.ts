import { and, asc, count, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type {
  UnroutedAddressCount,
  UnroutedInboundFilter,
  UnroutedInboundRecord,
  UnroutedInboundRepository,
} from '../unrouted-inbound-repository';
import type { SqliteExecutor } from './executor';
import { unroutedInbound } from './schema-unrouted';

/** The condition of a filter; undefined matches everything. */
function whereOf(filter: UnroutedInboundFilter): SQL | undefined {
  return and(
    filter.instanceId === undefined ? undefined : eq(unroutedInbound.instanceId, filter.instanceId),
    filter.address === undefined ? undefined : eq(unroutedInbound.address, filter.address),
  );
}

/** {@link UnroutedInboundRepository} on SQLite; the payload is sealed by `cipher`. */
export class SqliteUnroutedInboundRepository implements UnroutedInboundRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: SqliteExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  insert(record: UnroutedInboundRecord): Promise<void> {
    const sealed = { ...record, payload: this.cipher.encrypt(record.payload) };
    return this.run((db) => {
      db.insert(unroutedInbound).values(sealed).onConflictDoNothing().run();
    });
  }

  list(filter: UnroutedInboundFilter, limit: number): Promise<UnroutedInboundRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(unroutedInbound)
        .where(whereOf(filter))
        .orderBy(asc(unroutedInbound.receivedAt), asc(unroutedInbound.id))
        .limit(limit)
        .all()
        .map((row) => ({ ...row, payload: this.cipher.decrypt(row.payload) })),
    );
  }

  count(filter: UnroutedInboundFilter): Promise<number> {
    return this.run(
      (db) => db.select({ n: count() }).from(unroutedInbound).where(whereOf(filter)).get()?.n ?? 0,
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
        .orderBy(desc(count()), asc(unroutedInbound.address))
        .all(),
    );
  }

  delete(id: string): Promise<boolean> {
    return this.run(
      (db) => db.delete(unroutedInbound).where(eq(unroutedInbound.id, id)).run().changes > 0,
    );
  }

  deleteMatching(filter: UnroutedInboundFilter): Promise<number> {
    return this.run((db) => db.delete(unroutedInbound).where(whereOf(filter)).run().changes);
  }

  deleteBefore(before: Date): Promise<number> {
    return this.run(
      (db) =>
        db.delete(unroutedInbound).where(lt(unroutedInbound.receivedAt, before)).run().changes,
    );
  }
}
