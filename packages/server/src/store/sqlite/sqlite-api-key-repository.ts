import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { ApiKeyRecord, ApiKeyRepository, ApiKeyWithCustomer } from '../api-key-repository';
import type { SqliteExecutor } from './executor';
import { preparedQuery } from './prepared-query';
import { apiKeys, customers } from './schema';

const apiKeyWithCustomerByHash = preparedQuery((db) =>
  db
    .select({ apiKey: apiKeys, customer: customers })
    .from(apiKeys)
    .leftJoin(customers, eq(customers.id, apiKeys.customerId))
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .prepare(),
);

/** {@link ApiKeyRepository} on SQLite. */
export class SqliteApiKeyRepository implements ApiKeyRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(key: ApiKeyRecord): Promise<void> {
    return this.run((db) => {
      db.insert(apiKeys).values(key).run();
    });
  }

  findByHashWithCustomer(keyHash: string): Promise<ApiKeyWithCustomer | undefined> {
    return this.run((db) => apiKeyWithCustomerByHash(db).get({ keyHash }));
  }

  findById(id: string): Promise<ApiKeyRecord | undefined> {
    return this.run((db) => db.select().from(apiKeys).where(eq(apiKeys.id, id)).get());
  }

  listByCustomer(customerId: string): Promise<ApiKeyRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.customerId, customerId))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
        .all(),
    );
  }

  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined> {
    return this.run((db) => {
      db.update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .run();
      return db.select().from(apiKeys).where(eq(apiKeys.id, id)).get();
    });
  }
}
