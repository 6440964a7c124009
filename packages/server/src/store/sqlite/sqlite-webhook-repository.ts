import type { EventType, WebhookEventSelector } from '@switchboard/contract';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import {
  DuplicateWebhookError,
  eventSetKey,
  type WebhookChanges,
  type WebhookRecord,
  type WebhookRepository,
} from '../webhook-repository';
import type { SqliteOrm } from './connection';
import type { SqliteExecutor } from './executor';
import { equalsConstant, preparedQuery } from './prepared-query';
import { webhooks } from './schema-events';

type WebhookRow = typeof webhooks.$inferSelect;

/** The record of a row, its secret decrypted. */
function recordOf(cipher: FieldCipher) {
  return ({ eventsKey: _eventsKey, ...row }: WebhookRow): WebhookRecord => ({
    ...row,
    secret: cipher.decrypt(row.secret),
  });
}

/** Runs a write, turning a hit on the active-uniqueness index into {@link DuplicateWebhookError}. */
function guardUnique<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (
      error instanceof Error &&
      (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' &&
      error.message.includes('webhooks.')
    ) {
      throw new DuplicateWebhookError('an active webhook with this url and event set exists');
    }
    throw error;
  }
}

function oldestFirst(db: SqliteOrm) {
  return db.select().from(webhooks).$dynamic().orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}

/** The ids of the customer's active webhooks subscribed to an event type: read for every event. */
const activeSubscribedIds = preparedQuery((db) =>
  db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.customerId, sql.placeholder('customerId')),
        equalsConstant(webhooks.active, true),
        sql`(${webhooks.eventsKey} = '*' or exists (select 1 from json_each(${webhooks.events}) where json_each.value = ${sql.placeholder('type')}))`,
      ),
    )
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id))
    .prepare(),
);

/** The customer's oldest active webhook: it signs callback URL deliveries. */
const oldestActive = preparedQuery((db) =>
  oldestFirst(db)
    .where(
      and(
        eq(webhooks.customerId, sql.placeholder('customerId')),
        equalsConstant(webhooks.active, true),
      ),
    )
    .limit(1)
    .prepare(),
);

/** {@link WebhookRepository} on SQLite. */
export class SqliteWebhookRepository implements WebhookRepository {
  /** Creates the repository over an executor. */
  readonly #toRecord: (row: WebhookRow) => WebhookRecord;

  constructor(
    private readonly run: SqliteExecutor,
    private readonly cipher: FieldCipher,
  ) {
    this.#toRecord = recordOf(cipher);
  }

  insert(webhook: WebhookRecord): Promise<void> {
    return this.run((db) => {
      guardUnique(() =>
        db
          .insert(webhooks)
          .values({
            ...webhook,
            secret: this.cipher.encrypt(webhook.secret),
            eventsKey: eventSetKey(webhook.events),
          })
          .run(),
      );
    });
  }

  findById(customerId: string, id: string): Promise<WebhookRecord | undefined> {
    return this.run((db) => {
      const row = db
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.customerId, customerId), eq(webhooks.id, id)))
        .get();
      return row && this.#toRecord(row);
    });
  }

  listByCustomer(customerId: string): Promise<WebhookRecord[]> {
    return this.run((db) =>
      oldestFirst(db).where(eq(webhooks.customerId, customerId)).all().map(this.#toRecord),
    );
  }

  findOldestActive(customerId: string): Promise<WebhookRecord | undefined> {
    return this.run((db) => {
      const row = oldestActive(db).get({ customerId });
      return row && this.#toRecord(row);
    });
  }

  findActiveDuplicate(
    customerId: string,
    url: string,
    events: readonly WebhookEventSelector[],
    exceptId?: string,
  ): Promise<WebhookRecord | undefined> {
    return this.run((db) => {
      const row = db
        .select()
        .from(webhooks)
        .where(
          and(
            eq(webhooks.customerId, customerId),
            equalsConstant(webhooks.active, true),
            eq(webhooks.url, url),
            eq(webhooks.eventsKey, eventSetKey(events)),
            exceptId === undefined ? undefined : ne(webhooks.id, exceptId),
          ),
        )
        .get();
      return row && this.#toRecord(row);
    });
  }

  listActiveSubscribedIds(customerId: string, type: EventType): Promise<string[]> {
    return this.run((db) =>
      activeSubscribedIds(db)
        .all({ customerId, type })
        .map((row) => row.id),
    );
  }

  update(customerId: string, id: string, changes: WebhookChanges): Promise<boolean> {
    return this.run((db) => {
      const values = {
        ...changes,
        ...(changes.events === undefined ? {} : { eventsKey: eventSetKey(changes.events) }),
        ...(changes.secret === undefined ? {} : { secret: this.cipher.encrypt(changes.secret) }),
      };
      const result = guardUnique(() =>
        db
          .update(webhooks)
          .set(values)
          .where(and(eq(webhooks.customerId, customerId), eq(webhooks.id, id)))
          .run(),
      );
      return result.changes > 0;
    });
  }

  deactivateAll(customerId: string, at: Date): Promise<number> {
    return this.run((db) => {
      const result = db
        .update(webhooks)
        .set({ active: false, updatedAt: at })
        .where(and(eq(webhooks.customerId, customerId), equalsConstant(webhooks.active, true)))
        .run();
      return result.changes;
    });
  }

  delete(customerId: string, id: string): Promise<boolean> {
    return this.run((db) => {
      const result = db
        .delete(webhooks)
        .where(and(eq(webhooks.customerId, customerId), eq(webhooks.id, id)))
        .run();
      return result.changes > 0;
    });
  }

  recordExhaustedChain(
    id: string,
    threshold: number,
    at: Date,
  ): Promise<{ streak: number; deactivated: boolean }> {
    return this.run((db) => {
      const row = db
        .update(webhooks)
        .set({ exhaustedChains: sql`${webhooks.exhaustedChains} + 1` })
        .where(eq(webhooks.id, id))
        .returning({ streak: webhooks.exhaustedChains, active: webhooks.active })
        .get();
      if (row === undefined) return { streak: 0, deactivated: false };
      if (!row.active || row.streak < threshold) return { streak: row.streak, deactivated: false };
      db.update(webhooks).set({ active: false, updatedAt: at }).where(eq(webhooks.id, id)).run();
      return { streak: row.streak, deactivated: true };
    });
  }
}
