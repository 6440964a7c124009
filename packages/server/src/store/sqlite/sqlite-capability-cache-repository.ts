import { and, eq } from 'drizzle-orm';
import type {
  CapabilityCacheEntry,
  CapabilityCacheRepository,
} from '../capability-cache-repository';
import type { SqliteExecutor } from './executor';
import { capabilityCache } from './schema-capabilities';

/** {@link CapabilityCacheRepository} on SQLite. */
export class SqliteCapabilityCacheRepository implements CapabilityCacheRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  find(
    customerId: string,
    instanceId: string,
    address: string,
  ): Promise<CapabilityCacheEntry | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(capabilityCache)
        .where(
          and(
            eq(capabilityCache.customerId, customerId),
            eq(capabilityCache.instanceId, instanceId),
            eq(capabilityCache.address, address),
          ),
        )
        .get(),
    );
  }

  put(entry: CapabilityCacheEntry): Promise<void> {
    return this.run((db) => {
      db.insert(capabilityCache)
        .values(entry)
        .onConflictDoUpdate({
          target: [capabilityCache.customerId, capabilityCache.instanceId, capabilityCache.address],
          set: { availability: entry.availability, cachedAt: entry.cachedAt },
        })
        .run();
    });
  }
}
