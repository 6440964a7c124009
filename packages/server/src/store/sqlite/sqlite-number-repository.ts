import { and, asc, desc, eq, or, type SQL } from 'drizzle-orm';
import type { NumberRepository, SenderNumberRecord, SenderNumberView } from '../number-repository';
import type { SqliteOrm } from './connection';
import type { SqliteExecutor } from './executor';
import { instances, senderNumbers } from './schema';

function selectViews(db: SqliteOrm, where: SQL | undefined): SenderNumberView[] {
  return db
    .select({
      id: senderNumbers.id,
      customerId: senderNumbers.customerId,
      instanceId: senderNumbers.instanceId,
      phoneNumber: senderNumbers.phoneNumber,
      email: senderNumbers.email,
      isDefault: senderNumbers.isDefault,
      createdAt: senderNumbers.createdAt,
      instanceName: instances.name,
      healthStatus: instances.healthStatus,
    })
    .from(senderNumbers)
    .innerJoin(instances, eq(instances.id, senderNumbers.instanceId))
    .where(where)
    .orderBy(desc(senderNumbers.isDefault), asc(senderNumbers.createdAt), asc(senderNumbers.id))
    .all();
}

const matchesAddress = (address: string) =>
  or(eq(senderNumbers.phoneNumber, address), eq(senderNumbers.email, address));

/** {@link NumberRepository} on SQLite. */
export class SqliteNumberRepository implements NumberRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(number: SenderNumberRecord): Promise<void> {
    return this.run((db) => {
      db.insert(senderNumbers).values(number).run();
    });
  }

  listByCustomer(customerId: string): Promise<SenderNumberView[]> {
    return this.run((db) => selectViews(db, eq(senderNumbers.customerId, customerId)));
  }

  findByAddress(customerId: string, address: string): Promise<SenderNumberView | undefined> {
    return this.run(
      (db) =>
        selectViews(db, and(eq(senderNumbers.customerId, customerId), matchesAddress(address)))[0],
    );
  }

  findDefault(customerId: string): Promise<SenderNumberView | undefined> {
    return this.run(
      (db) =>
        selectViews(
          db,
          and(eq(senderNumbers.customerId, customerId), eq(senderNumbers.isDefault, true)),
        )[0],
    );
  }

  findByAddressInAnyCustomer(address: string): Promise<SenderNumberView | undefined> {
    return this.run((db) => selectViews(db, matchesAddress(address))[0]);
  }

  clearDefault(customerId: string): Promise<void> {
    return this.run((db) => {
      db.update(senderNumbers)
        .set({ isDefault: false })
        .where(and(eq(senderNumbers.customerId, customerId), eq(senderNumbers.isDefault, true)))
        .run();
    });
  }

  delete(customerId: string, phoneNumber: string): Promise<boolean> {
    return this.run((db) => {
      const result = db
        .delete(senderNumbers)
        .where(
          and(eq(senderNumbers.customerId, customerId), eq(senderNumbers.phoneNumber, phoneNumber)),
        )
        .run();
      return result.changes > 0;
    });
  }

  deleteAllOfCustomer(customerId: string): Promise<number> {
    return this.run((db) => {
      const result = db.delete(senderNumbers).where(eq(senderNumbers.customerId, customerId)).run();
      return result.changes;
    });
  }
}
