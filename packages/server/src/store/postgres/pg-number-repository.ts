import { and, asc, desc, eq, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type {
  NumberHealthOverride,
  NumberRepository,
  SenderNumberRecord,
  SenderNumberView,
} from '../number-repository';
import type { HealthStatusValue } from '../store-types';
import { changed, first, type PgExecutor, type PgOrm } from './pg-executor';
import { pgPreparedQuery } from './pg-prepared-query';
import { instances, senderNumbers } from './pg-schema';

/** True for numbers that have `instanceId` serve one of their channels. */
function servesAChannel(instanceId: string): SQL {
  return sql`exists (select 1 from json_each_text(${senderNumbers.channelInstances}) as served where served.value = ${instanceId})`;
}

/** The numbers meeting `where` with their instance's name and health, default first. */
function viewsQuery(db: PgOrm, where: SQL | undefined) {
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
      healthStatus: sql<HealthStatusValue>`coalesce(${senderNumbers.sandboxHealth}->>'status', ${instances.healthStatus})`,
    })
    .from(senderNumbers)
    .innerJoin(instances, eq(instances.id, senderNumbers.instanceId))
    .where(where)
    .orderBy(desc(senderNumbers.isDefault), asc(senderNumbers.createdAt), asc(senderNumbers.id));
}

/** The number's phone number or email is `address`. */
const matchesAddress = (address: string | Placeholder) =>
  or(eq(senderNumbers.phoneNumber, address), eq(senderNumbers.email, address));

/** The customer's number whose phone number or email is `address`, with its instance. */
const viewByAddress = pgPreparedQuery((db) =>
  viewsQuery(
    db,
    and(
      eq(senderNumbers.customerId, sql.placeholder('customerId')),
      matchesAddress(sql.placeholder('address')),
    ),
  )
    .limit(1)
    .prepare(''),
);

/** The customer's default number, with its instance. */
const defaultView = pgPreparedQuery((db) =>
  viewsQuery(
    db,
    and(
      eq(senderNumbers.customerId, sql.placeholder('customerId')),
      eq(senderNumbers.isDefault, true),
    ),
  )
    .limit(1)
    .prepare(''),
);

/** {@link NumberRepository} on PostgreSQL. */
export class PgNumberRepository implements NumberRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(number: SenderNumberRecord): Promise<void> {
    return this.run(async (db) => {
      await db.insert(senderNumbers).values(number);
    });
  }

  listByCustomer(customerId: string): Promise<SenderNumberView[]> {
    return this.run((db) => viewsQuery(db, eq(senderNumbers.customerId, customerId)));
  }

  findByAddress(customerId: string, address: string): Promise<SenderNumberView | undefined> {
    return this.run(async (db) => first(await viewByAddress(db).execute({ customerId, address })));
  }

  findDefault(customerId: string): Promise<SenderNumberView | undefined> {
    return this.run(async (db) => first(await defaultView(db).execute({ customerId })));
  }

  findByAddressInAnyCustomer(address: string): Promise<SenderNumberView | undefined> {
    return this.run((db) => viewsQuery(db, matchesAddress(address)).limit(1).then(first));
  }

  setSandboxHealth(
    customerId: string,
    phoneNumber: string,
    health: NumberHealthOverride | null,
  ): Promise<void> {
    return this.run(async (db) => {
      await db
        .update(senderNumbers)
        .set({ sandboxHealth: health })
        .where(
          and(eq(senderNumbers.customerId, customerId), eq(senderNumbers.phoneNumber, phoneNumber)),
        );
    });
  }

  clearDefault(customerId: string): Promise<void> {
    return this.run(async (db) => {
      await db
        .update(senderNumbers)
        .set({ isDefault: false })
        .where(and(eq(senderNumbers.customerId, customerId), eq(senderNumbers.isDefault, true)));
    });
  }

  delete(customerId: string, phoneNumber: string): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db
        .delete(senderNumbers)
        .where(
          and(eq(senderNumbers.customerId, customerId), eq(senderNumbers.phoneNumber, phoneNumber)),
        );
      return changed(result) > 0;
    });
  }

  deleteAllOfCustomer(customerId: string): Promise<number> {
    return this.run(async (db) =>
      changed(await db.delete(senderNumbers).where(eq(senderNumbers.customerId, customerId))),
    );
  }

  phoneNumbersOfInstance(instanceId: string): Promise<string[]> {
    return this.run(async (db) =>
      (
        await db
          .select({ phoneNumber: senderNumbers.phoneNumber })
          .from(senderNumbers)
          .where(or(eq(senderNumbers.instanceId, instanceId), servesAChannel(instanceId)))
          .orderBy(asc(senderNumbers.phoneNumber))
      ).map((row) => row.phoneNumber),
    );
  }

  deleteAllOfInstance(instanceId: string): Promise<string[]> {
    return this.run(async (db) => {
      const removed = (
        await db
          .delete(senderNumbers)
          .where(eq(senderNumbers.instanceId, instanceId))
          .returning({ phoneNumber: senderNumbers.phoneNumber })
      ).map((row) => row.phoneNumber);
      const borrowing = await db
        .select({
          id: senderNumbers.id,
          phoneNumber: senderNumbers.phoneNumber,
          channelInstances: senderNumbers.channelInstances,
        })
        .from(senderNumbers)
        .where(servesAChannel(instanceId))
        .orderBy(asc(senderNumbers.phoneNumber));
      for (const row of borrowing) {
        const kept = Object.fromEntries(
          Object.entries(row.channelInstances).filter(([, id]) => id !== instanceId),
        );
        await db
          .update(senderNumbers)
          .set({ channelInstances: kept })
          .where(eq(senderNumbers.id, row.id));
        removed.push(row.phoneNumber);
      }
      return removed;
    });
  }
}
