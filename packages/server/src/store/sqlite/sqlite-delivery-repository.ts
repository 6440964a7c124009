import { and, desc, eq, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type {
  ClaimedDelivery,
  DeliveryPageQuery,
  DeliveryRecord,
  DeliveryRepository,
  DeliveryResult,
  DueDelivery,
} from '../delivery-repository';
import type { SqliteExecutor } from './executor';
import { customers } from './schema';
import { events, webhookDeliveries, webhooks } from './schema-events';

const leaseIsFree = (now: Date) =>
  or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now));

const isDue = (now: Date) =>
  and(
    eq(webhookDeliveries.status, 'pending'),
    lte(webhookDeliveries.nextAttemptAt, now),
    leaseIsFree(now),
  );

/** The attempts of the customer's webhook that also match every one of `conditions`. */
const ofWebhook = (customerId: string, webhookId: string, ...conditions: (SQL | undefined)[]) =>
  and(
    eq(webhookDeliveries.customerId, customerId),
    eq(webhookDeliveries.webhookId, webhookId),
    ...conditions,
  );

/** {@link DeliveryRepository} on SQLite. */
export class SqliteDeliveryRepository implements DeliveryRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insertMany(deliveries: readonly DeliveryRecord[]): Promise<void> {
    return this.run((db) => {
      if (deliveries.length > 0)
        db.insert(webhookDeliveries)
          .values([...deliveries])
          .run();
    });
  }

  findForWebhook(
    customerId: string,
    webhookId: string,
    id: string,
  ): Promise<DeliveryRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(webhookDeliveries)
        .where(ofWebhook(customerId, webhookId, eq(webhookDeliveries.id, id)))
        .get(),
    );
  }

  listForWebhook(
    customerId: string,
    webhookId: string,
    query: DeliveryPageQuery,
  ): Promise<DeliveryRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(webhookDeliveries)
        .where(
          ofWebhook(
            customerId,
            webhookId,
            query.before === undefined ? undefined : lt(webhookDeliveries.id, query.before),
            query.status === undefined ? undefined : eq(webhookDeliveries.status, query.status),
            query.eventId === undefined ? undefined : eq(webhookDeliveries.eventId, query.eventId),
          ),
        )
        // UUID v7 ids grow with creation time: id order is creation order.
        .orderBy(desc(webhookDeliveries.id))
        .limit(query.limit)
        .all(),
    );
  }

  listDue(now: Date, perTarget: number, limit: number): Promise<DueDelivery[]> {
    return this.run((db) => {
      const d = webhookDeliveries;
      const targetKey = sql<string>`coalesce(${d.webhookId}, 'url:' || ${d.targetUrl})`;
      // A window per receiver caps each one's share of a poll, so a webhook with a large backlog
      // cannot fill the batch while other receivers' attempts wait.
      const ranked = db
        .select({
          id: d.id,
          targetKey: targetKey.as('target_key'),
          nextAttemptAt: d.nextAttemptAt,
          rank: sql<number>`row_number() over (partition by ${targetKey} order by ${d.nextAttemptAt}, ${d.id})`.as(
            'rank',
          ),
        })
        .from(d)
        .where(isDue(now))
        .as('ranked');
      return db
        .select({ id: ranked.id, targetKey: ranked.targetKey })
        .from(ranked)
        .where(lte(ranked.rank, perTarget))
        .orderBy(ranked.nextAttemptAt, ranked.id)
        .limit(limit)
        .all();
    });
  }

  claim(
    id: string,
    owner: string,
    now: Date,
    leaseUntil: Date,
    options: { ignoreDueTime?: boolean } = {},
  ): Promise<ClaimedDelivery | undefined> {
    return this.run((db) => {
      // One conditional UPDATE: atomic even when several processes share the database file.
      const claimed = db
        .update(webhookDeliveries)
        .set({ leaseOwner: owner, leaseUntil })
        .where(
          and(
            eq(webhookDeliveries.id, id),
            options.ignoreDueTime
              ? and(eq(webhookDeliveries.status, 'pending'), leaseIsFree(now))
              : isDue(now),
          ),
        )
        .returning()
        .get();
      if (claimed === undefined) return undefined;
      const context = db
        .select({
          payload: events.payload,
          correlationId: events.correlationId,
          customerDeletedAt: customers.deletedAt,
        })
        .from(events)
        .innerJoin(customers, eq(customers.id, events.customerId))
        .where(eq(events.id, claimed.eventId))
        .get();
      if (context === undefined) return undefined;
      const webhook =
        claimed.webhookId === null
          ? undefined
          : db
              .select({ url: webhooks.url, secret: webhooks.secret, active: webhooks.active })
              .from(webhooks)
              .where(eq(webhooks.id, claimed.webhookId))
              .get();
      return {
        delivery: claimed,
        payload: context.payload,
        correlationId: context.correlationId,
        webhook: webhook ?? null,
        customerDeleted: context.customerDeletedAt !== null,
      };
    });
  }

  complete(id: string, owner: string, result: DeliveryResult): Promise<boolean> {
    return this.run((db) => {
      const update = db
        .update(webhookDeliveries)
        .set({ ...result, leaseOwner: null, leaseUntil: null })
        .where(
          and(
            eq(webhookDeliveries.id, id),
            eq(webhookDeliveries.status, 'pending'),
            eq(webhookDeliveries.leaseOwner, owner),
          ),
        )
        .run();
      return update.changes > 0;
    });
  }

  listOverdue(now: Date): Promise<Array<{ id: string; dueAt: number }>> {
    return this.run((db) =>
      db
        .select({ id: webhookDeliveries.id, dueAt: webhookDeliveries.nextAttemptAt })
        .from(webhookDeliveries)
        .where(isDue(now))
        .all()
        .map((row) => ({ id: row.id, dueAt: row.dueAt?.getTime() ?? now.getTime() })),
    );
  }

  reschedule(id: string, at: Date): Promise<void> {
    return this.run((db) => {
      db.update(webhookDeliveries)
        .set({ nextAttemptAt: at })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
        .run();
    });
  }
}
