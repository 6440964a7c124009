import { and, asc, eq, isNull } from 'drizzle-orm';
import type { ApiKeyRecord, ApiKeyRepository } from '../api-key-repository';
import { first, type PgExecutor } from './pg-executor';
import { preparedFirstBy } from './pg-prepared-query';
import { apiKeys } from './pg-schema';

const apiKeyByHash = preparedFirstBy(apiKeys, { keyHash: apiKeys.keyHash });

/** {@link ApiKeyRepository} on PostgreSQL. */
export class PgApiKeyRepository implements ApiKeyRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(key: ApiKeyRecord): Promise<void> {
    return this.run(async (db) => {
      await db.insert(apiKeys).values(key);
    });
  }

  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.run((db) => apiKeyByHash(db, { keyHash }));
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
