import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { CustomerRecord, CustomerRepository } from '../customer-repository';
import type { SqliteExecutor } from './executor';
import { preparedQuery } from './prepared-query';
import { customers } from './schema';

const customerById = preparedQuery((db) =>
  db
    .select()
    .from(customers)
    .where(eq(customers.id, sql.placeholder('id')))
    .prepare(),
);

/** {@link CustomerRepository} on SQLite. */
export class SqliteCustomerRepository implements CustomerRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(customer: Omit<CustomerRecord, 'deletedAt'>): Promise<void> {
    return this.run((db) => {
      db.insert(customers).values(customer).run();
    });
  }

  findById(id: string): Promise<CustomerRecord | undefined> {
    return this.run((db) => customerById(db).get({ id }));
  }

  listActive(): Promise<CustomerRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(customers)
        .where(isNull(customers.deletedAt))
        .orderBy(asc(customers.createdAt), asc(customers.id))
        .all(),
    );
  }

  markDeleted(id: string, at: Date): Promise<boolean> {
    return this.run((db) => {
      const result = db
        .update(customers)
        .set({ deletedAt: at })
        .where(and(eq(customers.id, id), isNull(customers.deletedAt)))
        .run();
      return result.changes > 0;
    });
  }

  count(): Promise<number> {
    return this.run((db) => db.select({ n: count() }).from(customers).get()?.n ?? 0);
  }
}
