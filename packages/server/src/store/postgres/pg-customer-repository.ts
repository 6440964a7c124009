import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { CustomerRecord, CustomerRepository } from '../customer-repository';
import { changed, type PgExecutor } from './pg-executor';
import { preparedFirstBy } from './pg-prepared-query';
import { customers } from './pg-schema';

const customerById = preparedFirstBy(customers, { id: customers.id });

/** {@link CustomerRepository} on PostgreSQL. */
export class PgCustomerRepository implements CustomerRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(customer: Omit<CustomerRecord, 'deletedAt'>): Promise<void> {
    return this.run(async (db) => {
      await db.insert(customers).values(customer);
    });
  }

  findById(id: string): Promise<CustomerRecord | undefined> {
    return this.run((db) => customerById(db, { id }));
  }

  listActive(): Promise<CustomerRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(customers)
        .where(isNull(customers.deletedAt))
        .orderBy(asc(customers.createdAt), asc(customers.id)),
    );
  }

  markDeleted(id: string, at: Date): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db
        .update(customers)
        .set({ deletedAt: at })
        .where(and(eq(customers.id, id), isNull(customers.deletedAt)));
      return changed(result) > 0;
    });
  }

  count(): Promise<number> {
    return this.run(async (db) => {
      const [row] = await db.select({ n: count() }).from(customers);
      return row?.n ?? 0;
    });
  }
}
