import { and, asc, eq, gt, ne, or } from 'drizzle-orm';
import type { DeliveryRecord } from '../delivery-repository';
import type { EventRecord, EventRepository, MessageEventPageQuery } from '../event-repository';
import { first, type PgExecutor } from './pg-executor';
import { preparedInsert, preparedInsertPair } from './pg-prepared-query';
import { events, webhookDeliveries } from './pg-schema-events';

const insertEvent = preparedInsert(events);
/** An event and its one first attempt (one receiver, as for most events), in one statement. */
const insertEventWithAttempt = preparedInsertPair(events, webhookDeliveries);

/** {@link EventRepository} on PostgreSQL. */
export class PgEventRepository implements EventRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(event: EventRecord, firstAttempts: readonly DeliveryRecord[] = []): Promise<void> {
    return this.run(async (db) => {
      const [only] = firstAttempts;
      if (firstAttempts.length === 0) await insertEvent(db, event);
      else if (firstAttempts.length === 1 && only) await insertEventWithAttempt(db, event, only);
      else {
        // More than one receiver (a callback URL, several webhooks): built for the occasion.
        const inserted = db.$with('inserted').as(db.insert(events).values(event).returning());
        await db
          .with(inserted)
          .insert(webhookDeliveries)
          .values([...firstAttempts]);
      }
    });
  }

  findById(customerId: string, id: string): Promise<EventRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(events)
        .where(and(eq(events.customerId, customerId), eq(events.id, id)))
        .limit(1)
        .then(first),
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
        .limit(limit),
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
        .limit(query.limit),
    );
  }
}
