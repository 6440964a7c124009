import { and, asc, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type {
  NumberHealthOverride,
  NumberRepository,
  SenderNumberRecord,
  SenderNumberView,
} from '../number-repository';
import type { HealthStatusValue } from '../store-types';
import type { SqliteOrm } from './connection';
import type { SqliteExecutor } from './executor';
import { equalsConstant, preparedQuery } from './prepared-query';
import { instances, senderNumbers } from './schema';

/** True for numbers that have `instanceId` serve one of their channels. */
function servesAChannel(instanceId: string): SQL {
  return sql`exists (select 1 from json_each(${senderNumbers.channelInstances}) where json_each.value = ${instanceId})`;
}

/** The numbers meeting `where` with their instance's name and health, default first. */
function viewsQuery(db: SqliteOrm, where: SQL | undefined) {
  return db
    .select({
      id: senderNumbers.id,
      customerId: senderNumbers.customerId,
      instanceId: senderNumbers.instanceId,
      channelInstances: senderNumbers.channelInstances,
      phoneNumber: senderNumbers.phoneNumber,
      email: senderNumbers.email,
      isDefault: senderNumbers.isDefault,
      createdAt: senderNumbers.createdAt,
      instanceName: instances.name,
      instanceChannels: instances.channels,
      // A health the customer simulated for the number (sandbox) shows in place of the instance's.
      healthStatus: sql<HealthStatusValue>`coalesce(json_extract(${senderNumbers.sandboxHealth}, '$.status'), ${instances.healthStatus})`,
    })
    .from(senderNumbers)
    .innerJoin(instances, eq(instances.id, senderNumbers.instanceId))
    .where(where)
    .orderBy(desc(senderNumbers.isDefault), asc(senderNumbers.createdAt), asc(senderNumbers.id))
    .prepare();
}

const customerId = sql.placeholder('customerId');
const address = sql.placeholder('address');
const matchesAddress = or(eq(senderNumbers.phoneNumber, address), eq(senderNumbers.email, address));

// The view selects run on every send (the sender's number): each is prepared once.
const viewsOfCustomer = preparedQuery((db) =>
  viewsQuery(db, eq(senderNumbers.customerId, customerId)),
);
const viewByAddress = preparedQuery((db) =>
  viewsQuery(db, and(eq(senderNumbers.customerId, customerId), matchesAddress)),
);
const defaultView = preparedQuery((db) =>
  viewsQuery(
    db,
    and(eq(senderNumbers.customerId, customerId), equalsConstant(senderNumbers.isDefault, true)),
  ),
);
const viewByAddressInAnyCustomer = preparedQuery((db) => viewsQuery(db, matchesAddress));

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
    return this.run((db) => viewsOfCustomer(db).all({ customerId }));
  }

  findByAddress(customerId: string, address: string): Promise<SenderNumberView | undefined> {
    return this.run((db) => viewByAddress(db).get({ customerId, address }));
  }

  findDefault(customerId: string): Promise<SenderNumberView | undefined> {
    return this.run((db) => defaultView(db).get({ customerId }));
  }

  findByAddressInAnyCustomer(address: string): Promise<SenderNumberView | undefined> {
    return this.run((db) => viewByAddressInAnyCustomer(db).get({ address }));
  }

  setSandboxHealth(
    customerId: string,
    phoneNumber: string,
    health: NumberHealthOverride | null,
  ): Promise<void> {
    return this.run((db) => {
      db.update(senderNumbers)
        .set({ sandboxHealth: health })
        .where(
          and(eq(senderNumbers.customerId, customerId), eq(senderNumbers.phoneNumber, phoneNumber)),
        )
        .run();
    });
  }

  clearDefault(customerId: string): Promise<void> {
    return this.run((db) => {
      db.update(senderNumbers)
        .set({ isDefault: false })
        .where(
          and(
            eq(senderNumbers.customerId, customerId),
            equalsConstant(senderNumbers.isDefault, true),
          ),
        )
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

  phoneNumbersOfInstance(instanceId: string): Promise<string[]> {
    return this.run((db) =>
      db
        .select({ phoneNumber: senderNumbers.phoneNumber })
        .from(senderNumbers)
        .where(or(eq(senderNumbers.instanceId, instanceId), servesAChannel(instanceId)))
        .orderBy(asc(senderNumbers.phoneNumber))
        .all()
        .map((row) => row.phoneNumber),
    );
  }

  deleteAllOfInstance(instanceId: string): Promise<string[]> {
    return this.run((db) => {
      const removed = db
        .delete(senderNumbers)
        .where(eq(senderNumbers.instanceId, instanceId))
        .returning({ phoneNumber: senderNumbers.phoneNumber })
        .all()
        .map((row) => row.phoneNumber);
      const borrowing = db
        .select({
          id: senderNumbers.id,
          phoneNumber: senderNumbers.phoneNumber,
          channelInstances: senderNumbers.channelInstances,
        })
        .from(senderNumbers)
        .where(servesAChannel(instanceId))
        .all();
      for (const row of borrowing) {
        const kept = Object.fromEntries(
          Object.entries(row.channelInstances).filter(([, id]) => id !== instanceId),
        );
        db.update(senderNumbers)
          .set({ channelInstances: kept })
          .where(eq(senderNumbers.id, row.id))
          .run();
        removed.push(row.phoneNumber);
      }
      return removed;
    });
  }
}
