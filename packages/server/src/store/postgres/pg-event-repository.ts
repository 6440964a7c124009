import { and, asc, eq, gt, ne, or } from 'drizzle-orm';
import type { EventRecord, EventRepository } from '../event-repository';
import { first, type PgExecutor } from './pg-executor';
import { preparedInsert } from './pg-prepared-query';
import { events } from './pg-schema-events';

const insertEvent = preparedInsert(events);

/** {@link EventRepository} on PostgreSQL. */
export class PgEventRepository implements EventRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(event: EventRecord): Promise<void> {
    return this.run(async (db) => {
      await insertEvent(db, event);
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
}
