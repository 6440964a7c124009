import { and, eq, lt } from 'drizzle-orm';
import type { ProviderEventReceiptRepository } from '../provider-event-receipt-repository';
import { changed, type PgExecutor } from './pg-executor';
import { providerEventReceipts } from './pg-schema-provider-state';

/** {@link ProviderEventReceiptRepository} on PostgreSQL. */
export class PgProviderEventReceiptRepository implements ProviderEventReceiptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  claim(instanceId: string, upstreamId: string, at: Date): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db
        .insert(providerEventReceipts)
        .values({ instanceId, upstreamId, receivedAt: at })
        .onConflictDoNothing();
      return changed(result) > 0;
    });
  }

  release(instanceId: string, upstreamId: string): Promise<void> {
    return this.run(async (db) => {
      await db
        .delete(providerEventReceipts)
        .where(
          and(
            eq(providerEventReceipts.instanceId, instanceId),
            eq(providerEventReceipts.upstreamId, upstreamId),
          ),
        );
    });
  }

  prune(before: Date): Promise<number> {
    return this.run(async (db) =>
      changed(
        await db.delete(providerEventReceipts).where(lt(providerEventReceipts.receivedAt, before)),
      ),
    );
  }
}
