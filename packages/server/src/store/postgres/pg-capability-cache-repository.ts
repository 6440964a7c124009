import type {
  CapabilityCacheEntry,
  CapabilityCacheRepository,
} from '../capability-cache-repository';
import type { PgExecutor } from './pg-executor';
import { preparedFirstBy } from './pg-prepared-query';
import { capabilityCache } from './pg-schema-capabilities';

const entryOf = preparedFirstBy(capabilityCache, {
  customerId: capabilityCache.customerId,
  instanceId: capabilityCache.instanceId,
  address: capabilityCache.address,
});

/** {@link CapabilityCacheRepository} on PostgreSQL. */
export class PgCapabilityCacheRepository implements CapabilityCacheRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  find(
    customerId: string,
    instanceId: string,
    address: string,
  ): Promise<CapabilityCacheEntry | undefined> {
    return this.run((db) => entryOf(db, { customerId, instanceId, address }));
  }

  put(entry: CapabilityCacheEntry): Promise<void> {
    return this.run(async (db) => {
      await db
        .insert(capabilityCache)
        .values(entry)
        .onConflictDoUpdate({
          target: [capabilityCache.customerId, capabilityCache.instanceId, capabilityCache.address],
          set: { availability: entry.availability, cachedAt: entry.cachedAt },
        });
    });
  }
}
