import { and, eq, lte, or, type SQL } from 'drizzle-orm';
import type { ProviderLeaseRepository } from '../provider-lease-repository';
import { changed, type PgExecutor } from './pg-executor';
import { providerLeases } from './pg-schema-provider-state';

/** {@link ProviderLeaseRepository} on PostgreSQL: one conditional upsert per take or renewal. */
export class PgProviderLeaseRepository implements ProviderLeaseRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  acquire(
    instanceId: string,
    name: string,
    holder: string,
    now: number,
    expiresAt: number,
  ): Promise<boolean> {
    return this.run(async (db) => {
      // The update applies only to the holder's own lease or an expired one; otherwise the
      // statement changes nothing and the lease stays with its holder. PostgreSQL locks the
      // conflicting row first, so of racing processes exactly one takes an expired lease.
      const result = await db
        .insert(providerLeases)
        .values({ instanceId, name, holder, expiresAt: new Date(expiresAt) })
        .onConflictDoUpdate({
          target: [providerLeases.instanceId, providerLeases.name],
          set: { holder, expiresAt: new Date(expiresAt) },
          setWhere: or(
            eq(providerLeases.holder, holder),
            lte(providerLeases.expiresAt, new Date(now)),
          ) as SQL,
        });
      return changed(result) > 0;
    });
  }

  release(instanceId: string, name: string, holder: string): Promise<void> {
    return this.run(async (db) => {
      await db
        .delete(providerLeases)
        .where(
          and(
            eq(providerLeases.instanceId, instanceId),
            eq(providerLeases.name, name),
            eq(providerLeases.holder, holder),
          ),
        );
    });
  }

  deleteAll(instanceId: string): Promise<void> {
    return this.run(async (db) => {
      await db.delete(providerLeases).where(eq(providerLeases.instanceId, instanceId));
    });
  }
}
