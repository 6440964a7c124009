import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { ApiKeyRecord, ApiKeyRepository, ApiKeyWithCustomer } from '../api-key-repository';
import { first, type PgExecutor } from './pg-executor';
import { pgPreparedQuery } from './pg-prepared-query';
import { apiKeys, customers } from './pg-schema';

const apiKeyWithCustomerByHash = pgPreparedQuery((db) =>
  db
    .select({ apiKey: apiKeys, customer: customers })
    .from(apiKeys)
    .leftJoin(customers, eq(customers.id, apiKeys.customerId))
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .limit(1)
    .prepare(''),
);

/** {@link ApiKeyRepository} on PostgreSQL. */
export class PgApiKeyRepository implements ApiKeyRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(key: ApiKeyRecord): Promise<void> {
    return this.run(async (db) => {
      await db.insert(apiKeys).values(key);
    });
  }

  findByHashWithCustomer(keyHash: string): Promise<ApiKeyWithCustomer | undefined> {
    return this.run((db) => apiKeyWithCustomerByHash(db).execute({ keyHash }).then(first));
  }

  findById(id: string): Promise<ApiKeyRecord | undefined> {
    return this.run((db) =>
      db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1).then(first),
    );
  }

  listByCustomer(customerId: string): Promise<ApiKeyRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.customerId, customerId))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)),
    );
  }

  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined> {
    return this.run(async (db) => {
      await db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
      return db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1).then(first);
    });
  }
}
