import { and, asc, eq, gt, ne, or } from 'drizzle-orm';
import type { DeliveryRecord } from '../delivery-repository';
import type { EventRecord, EventRepository, MessageEventPageQuery } from '../event-repository';
import type { SqliteExecutor } from './executor';
import { insertRow } from './prepared-insert';
import { events, webhookDeliveries } from './schema-events';

/** {@link EventRepository} on SQLite. */
export class SqliteEventRepository implements EventRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(event: EventRecord, firstAttempts: readonly DeliveryRecord[] = []): Promise<void> {
    return this.run((db) => {
      insertRow(db, events, event);
      for (const attempt of firstAttempts) insertRow(db, webhookDeliveries, attempt);
    });
  }

  findById(customerId: string, id: string): Promise<EventRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(events)
        .where(and(eq(events.customerId, customerId), eq(events.id, id)))
        .get(),
    );
  }

  listAfter(
    customerId: string,
    after: { createdAt: Date; id: string },
    limit: number,
  ): Promise<EventRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(events)
        .where(
          and(
            eq(events.customerId, customerId),
            or(
              gt(events.createdAt, after.createdAt),
              and(eq(events.createdAt, after.createdAt), gt(events.id, after.id)),
            ),
            ne(events.type, 'webhook.test'),
          ),
        )
        .orderBy(asc(events.createdAt), asc(events.id))
        .limit(limit)
        .all(),
    );
  }

  listByMessage(
    customerId: string,
    messageId: string,
    query: MessageEventPageQuery,
  ): Promise<EventRecord[]> {
    const { after } = query;
    return this.run((db) =>
      db
        .select()
        .from(events)
        .where(
          and(
            eq(events.messageId, messageId),
            eq(events.customerId, customerId),
            after === undefined
              ? undefined
              : or(
                  gt(events.createdAt, after.createdAt),
                  and(eq(events.createdAt, after.createdAt), gt(events.id, after.id)),
                ),
          ),
        )
        .orderBy(asc(events.createdAt), asc(events.id))
        .limit(query.limit)
        .all(),
    );
  }
}
