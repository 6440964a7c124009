import { and, eq, lt } from 'drizzle-orm';
import type { ProviderEventReceiptRepository } from '../provider-event-receipt-repository';
import type { SqliteExecutor } from './executor';
import { providerEventReceipts } from './schema-provider-state';

/** {@link ProviderEventReceiptRepository} on SQLite. */
export class SqliteProviderEventReceiptRepository implements ProviderEventReceiptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  claim(instanceId: string, upstreamId: string, at: Date): Promise<boolean> {
    return this.run(
      (db) =>
        db
          .insert(providerEventReceipts)
          .values({ instanceId, upstreamId, receivedAt: at })
          .onConflictDoNothing()
          .run().changes > 0,
    );
  }

  release(instanceId: string, upstreamId: string): Promise<void> {
    return this.run((db) => {
      db.delete(providerEventReceipts)
        .where(
          and(
            eq(providerEventReceipts.instanceId, instanceId),
            eq(providerEventReceipts.upstreamId, upstreamId),
          ),
        )
        .run();
    });
  }

  prune(before: Date): Promise<number> {
    return this.run(
      (db) =>
        db.delete(providerEventReceipts).where(lt(providerEventReceipts.receivedAt, before)).run()
          .changes,
    );
  }
}
