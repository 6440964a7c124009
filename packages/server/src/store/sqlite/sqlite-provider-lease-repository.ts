import { and, eq, lte, or, type SQL } from 'drizzle-orm';
import type { ProviderLeaseRepository } from '../provider-lease-repository';
import type { SqliteExecutor } from './executor';
import { providerLeases } from './schema-provider-state';

/** {@link ProviderLeaseRepository} on SQLite: one conditional upsert per take or renewal. */
export class SqliteProviderLeaseRepository implements ProviderLeaseRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  acquire(
    instanceId: string,
    name: string,
    holder: string,
    now: number,
    expiresAt: number,
  ): Promise<boolean> {
    return this.run((db) => {
      // The update applies only to the holder's own lease or an expired one; otherwise the
      // statement changes nothing and the lease stays with its holder.
      const result = db
        .insert(providerLeases)
        .values({ instanceId, name, holder, expiresAt: new Date(expiresAt) })
        .onConflictDoUpdate({
          target: [providerLeases.instanceId, providerLeases.name],
          set: { holder, expiresAt: new Date(expiresAt) },
          setWhere: or(
            eq(providerLeases.holder, holder),
            lte(providerLeases.expiresAt, new Date(now)),
          ) as SQL,
        })
        .run();
      return result.changes > 0;
    });
  }

  release(instanceId: string, name: string, holder: string): Promise<void> {
    return this.run((db) => {
      db.delete(providerLeases)
        .where(
          and(
            eq(providerLeases.instanceId, instanceId),
            eq(providerLeases.name, name),
            eq(providerLeases.holder, holder),
          ),
        )
        .run();
    });
  }

  deleteAll(instanceId: string): Promise<void> {
    return this.run((db) => {
      db.delete(providerLeases).where(eq(providerLeases.instanceId, instanceId)).run();
    });
  }
}
