import { and, eq } from 'drizzle-orm';
import type {
  CapabilityCacheEntry,
  CapabilityCacheRepository,
} from '../capability-cache-repository';
import { first, type PgExecutor } from './pg-executor';
import { capabilityCache } from './pg-schema-capabilities';

/** {@link CapabilityCacheRepository} on PostgreSQL. */
export class PgCapabilityCacheRepository implements CapabilityCacheRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

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
        .limit(1)
        .then(first),
    );
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
