import { and, eq, sql } from 'drizzle-orm';
import type {
  CapabilityCacheEntry,
  CapabilityCacheRepository,
} from '../capability-cache-repository';
import type { SqliteExecutor } from './executor';
import { insertRow } from './prepared-insert';
import { preparedQuery } from './prepared-query';
import { capabilityCache } from './schema-capabilities';

const entryByKey = preparedQuery((db) =>
  db
    .select()
    .from(capabilityCache)
    .where(
      and(
        eq(capabilityCache.customerId, sql.placeholder('customerId')),
        eq(capabilityCache.instanceId, sql.placeholder('instanceId')),
        eq(capabilityCache.address, sql.placeholder('address')),
      ),
    )
    .prepare(),
);

/** {@link CapabilityCacheRepository} on SQLite. */
export class SqliteCapabilityCacheRepository implements CapabilityCacheRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  find(
    customerId: string,
    instanceId: string,
    address: string,
  ): Promise<CapabilityCacheEntry | undefined> {
    return this.run((db) => entryByKey(db).get({ customerId, instanceId, address }));
  }

  put(entry: CapabilityCacheEntry): Promise<void> {
    return this.run((db) => {
      insertRow(db, capabilityCache, entry, {
        target: ['customerId', 'instanceId', 'address'],
        set: ['availability', 'cachedAt'],
      });
    });
  }
}
