import type { EventType, WebhookEventSelector } from '@switchboard/contract';
import { and, asc, eq, ne, type Placeholder, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import {
  DuplicateWebhookError,
  eventSetKey,
  type WebhookChanges,
  type WebhookRecord,
  type WebhookRepository,
} from '../webhook-repository';
import { changed, first, type PgExecutor } from './pg-executor';
import { pgPreparedQuery } from './pg-prepared-query';
import { webhooks } from './pg-schema-events';

type WebhookRow = typeof webhooks.$inferSelect;

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** Runs a write, turning a hit on the active-uniqueness index into {@link DuplicateWebhookError}. */
async function guardUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
    const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
    if (
      (code ?? cause?.code) === UNIQUE_VIOLATION &&
      (constraint ?? cause?.constraint) === 'webhooks_active_url_events_unique'
    ) {
      throw new DuplicateWebhookError('an active webhook with this url and event set exists');
    }
    throw error;
  }
}

/** The customer's active webhooks subscribed to `type`. */
const subscribedTo = (type: EventType | Placeholder) =>
  sql`(${webhooks.eventsKey} = '*' or exists (select 1 from json_array_elements_text(${webhooks.events}) as selector where selector.value = ${type}))`;

/** The ids of the customer's active webhooks subscribed to the event type `type`, oldest first. */
const activeSubscribedIds = pgPreparedQuery((db) =>
  db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.customerId, sql.placeholder('customerId')),
        eq(webhooks.active, true),
        subscribedTo(sql.placeholder('type')),
      ),
    )
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id))
    .prepare(''),
);

/** {@link WebhookRepository} on PostgreSQL. */
export class PgWebhookRepository implements WebhookRepository {
  readonly #toRecord: (row: WebhookRow) => WebhookRecord;

  /** Creates the repository over an executor; `cipher` seals the signing secrets. */
  constructor(
    private readonly run: PgExecutor,
    private readonly cipher: FieldCipher,
  ) {
    this.#toRecord = ({ eventsKey: _eventsKey, ...row }) => ({
      ...row,
      secret: cipher.decrypt(row.secret),
    });
  }

  insert(webhook: WebhookRecord): Promise<void> {
    const row = {
      ...webhook,
      secret: this.cipher.encrypt(webhook.secret),
      eventsKey: eventSetKey(webhook.events),
    };
    return this.run(async (db) => {
      await guardUnique(() =>
        db
          .insert(webhooks)
          .values(row)
          .then(() => undefined),
      );
    });
  }

  findById(customerId: string, id: string): Promise<WebhookRecord | undefined> {
    return this.run(async (db) => {
      const row = await db
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.customerId, customerId), eq(webhooks.id, id)))
        .limit(1)
        .then(first);
      return row && this.#toRecord(row);
    });
  }

  listByCustomer(customerId: string): Promise<WebhookRecord[]> {
    return this.#oldestFirst(eq(webhooks.customerId, customerId));
  }

  findOldestActive(customerId: string): Promise<WebhookRecord | undefined> {
    return this.#oldestFirst(
      and(eq(webhooks.customerId, customerId), eq(webhooks.active, true)),
      1,
    ).then(first);
  }

  findActiveDuplicate(
    customerId: string,
    url: string,
    events: readonly WebhookEventSelector[],
    exceptId?: string,
  ): Promise<WebhookRecord | undefined> {
    return this.#oldestFirst(
      and(
        eq(webhooks.customerId, customerId),
        eq(webhooks.active, true),
        eq(webhooks.url, url),
        eq(webhooks.eventsKey, eventSetKey(events)),
        exceptId === undefined ? undefined : ne(webhooks.id, exceptId),
      ),
      1,
    ).then(first);
  }

  listActiveSubscribedIds(customerId: string, type: EventType): Promise<string[]> {
    return this.run(async (db) =>
      (await activeSubscribedIds(db).execute({ customerId, type })).map((row) => row.id),
    );
  }

  update(customerId: string, id: string, changes: WebhookChanges): Promise<boolean> {
    const values = {
      ...changes,
      ...(changes.events === undefined ? {} : { eventsKey: eventSetKey(changes.events) }),
      ...(changes.secret === undefined ? {} : { secret: this.cipher.encrypt(changes.secret) }),
    };
    return this.run(async (db) => {
      const result = await guardUnique(() =>
        db
          .update(webhooks)
          .set(values)
          .where(and(eq(webhooks.customerId, customerId), eq(webhooks.id, id))),
      );
      return changed(result) > 0;
    });
  }

  deactivateAll(customerId: string, at: Date): Promise<number> {
    return this.run(async (db) =>
      changed(
        await db
          .update(webhooks)
          .set({ active: false, updatedAt: at })
          .where(and(eq(webhooks.customerId, customerId), eq(webhooks.active, true))),
      ),
    );
  }

  delete(customerId: string, id: string): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db
        .delete(webhooks)
        .where(and(eq(webhooks.customerId, customerId), eq(webhooks.id, id)));
      return changed(result) > 0;
    });
  }

  recordExhaustedChain(
    id: string,
    threshold: number,
    at: Date,
  ): Promise<{ streak: number; deactivated: boolean }> {
    return this.run(async (db) => {
      const row = await db
        .update(webhooks)
        .set({ exhaustedChains: sql`${webhooks.exhaustedChains} + 1` })
        .where(eq(webhooks.id, id))
        .returning({ streak: webhooks.exhaustedChains, active: webhooks.active })
        .then(first);
      if (row === undefined) return { streak: 0, deactivated: false };
      if (!row.active || row.streak < threshold) return { streak: row.streak, deactivated: false };
      await db.update(webhooks).set({ active: false, updatedAt: at }).where(eq(webhooks.id, id));
      return { streak: row.streak, deactivated: true };
    });
  }

  #oldestFirst(where: ReturnType<typeof and>, limit?: number): Promise<WebhookRecord[]> {
    return this.run(async (db) => {
      const query = db
        .select()
        .from(webhooks)
        .where(where)
        .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
      const rows = limit === undefined ? await query : await query.limit(limit);
      return rows.map(this.#toRecord);
    });
  }
}
