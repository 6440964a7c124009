import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { FieldCipher } from '../../crypto/field-cipher';
import {
  type ClaimedDelivery,
  type ClaimedRow,
  type DeliveryPageQuery,
  type DeliveryRecord,
  type DeliveryRepository,
  type DeliveryResult,
  type DueDelivery,
  toClaimedDelivery,
  URL_TARGET_KEY_PREFIX,
} from '../delivery-repository';
import type { SqliteOrm } from './connection';
import type { SqliteExecutor } from './executor';
import { insertRow } from './prepared-insert';
import { equalsConstant, preparedQuery } from './prepared-query';
import { updateRows } from './prepared-update';
import { customers } from './schema';
import { events, webhookDeliveries, webhooks } from './schema-events';
import { cachedStatement, decodeRowInto, fixed, tableShape } from './table-statements';

/** A failed attempt, written as the partial index `webhook_deliveries_failed_attempted_idx` is. */
const FAILED_ATTEMPT = sql`${webhookDeliveries.status} in ('retrying', 'failed')`;

const leaseIsFree = (now: Date) =>
  or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now));

const isDue = (now: Date) =>
  and(
    equalsConstant(webhookDeliveries.status, 'pending'),
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

/**
 * The pending attempts, read through the partial index of the backlog by receiver: it is named
 * because the planner, without statistics, could take `webhook_deliveries_webhook_idx` and walk a
 * webhook's whole delivery log instead.
 */
const PENDING = `webhook_deliveries indexed by webhook_deliveries_pending_target_idx where status = 'pending'`;

/**
 * The receivers with an attempt due by `@now` (leased ones included), one index seek per
 * receiver with pending attempts (a loose index scan) plus one for its earliest due time: the
 * webhooks, then the callback URLs (`webhook_id` null) as `url:<callbackUrl>`.
 */
const DUE_TARGETS_SQL = `with recursive
  hook(id) as (
    select (select min(webhook_id) from ${PENDING} and webhook_id > '')
    union all
    select (select min(webhook_id) from ${PENDING} and webhook_id > hook.id) from hook where hook.id is not null
  ),
  url(target) as (
    select (select min(target_url) from ${PENDING} and webhook_id is null and target_url > '')
    union all
    select (select min(target_url) from ${PENDING} and webhook_id is null and target_url > url.target) from url where url.target is not null
  )
select id as key from hook
  where id is not null
  and (select min(next_attempt_at) from ${PENDING} and webhook_id = hook.id and target_url is null) <= @now
union all
select '${URL_TARGET_KEY_PREFIX}' || target as key from url
  where target is not null
  and (select min(next_attempt_at) from ${PENDING} and webhook_id is null and target_url = url.target) <= @now`;

/** Due, unleased attempts of one receiver, in due order: `?` = receiver, now, now, limit. */
const dueOfTargetSql = (receiver: string) =>
  `select id from ${PENDING} and ${receiver} and next_attempt_at <= ? and (lease_until is null or lease_until <= ?) order by next_attempt_at, id limit ?`;
const DUE_OF_WEBHOOK_SQL = dueOfTargetSql('webhook_id = ? and target_url is null');
const DUE_OF_URL_SQL = dueOfTargetSql('webhook_id is null and target_url = ?');

/**
 * Takes the leases of the pending attempts of a JSON array of ids whose leases are free (with
 * `returning id` appended, answers the ids taken): `?` = owner, until, ids, now.
 */
const CLAIM_SQL = `update webhook_deliveries set lease_owner = ?, lease_until = ? where id in (select value from json_each(?)) and status = 'pending' and (lease_until is null or lease_until <= ?)`;
/** Ends the streak of an attempt's webhook; no write when there is none, as after nearly every 2xx. */
const RESET_STREAK_SQL = `update webhooks set exhausted_chains = 0 where id = (select webhook_id from webhook_deliveries where id = ?) and exhausted_chains <> 0`;
/** {@link CLAIM_SQL} for attempts that are also due: one more `?`, now. */
const CLAIM_DUE_SQL = `${CLAIM_SQL} and next_attempt_at <= ?`;

/** `column` is one of the JSON array of text values bound to the placeholder `name`. */
const inArrayOf = (column: SQLiteColumn, name: string) =>
  sql`${column} in (select value from json_each(${sql.placeholder(name)}))`;

/** What a claimed attempt's read brings after the attempt's own columns, in this order. */
const CLAIMED_EXTRAS = {
  payload: events.payload,
  correlationId: events.correlationId,
  customerDeletedAt: customers.deletedAt,
  webhookUrl: webhooks.url,
  webhookSecret: webhooks.secret,
  webhookActive: webhooks.active,
} as const;

/**
 * Claimed attempts with what making each needs: its event, its customer, its webhook. Read as
 * arrays (`values`, which lists the nested attempt's columns first, then {@link CLAIMED_EXTRAS})
 * and decoded by {@link claimedRowOf}: the dispatcher's hottest read skips drizzle's row mapping.
 */
const claimedContext = preparedQuery((db) =>
  db
    .select({ delivery: webhookDeliveries, ...CLAIMED_EXTRAS })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(customers, eq(customers.id, events.customerId))
    .leftJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(inArrayOf(webhookDeliveries.id, 'ids'))
    .prepare(),
);

/** {@link CLAIMED_EXTRAS} as entries, listed once. */
const CLAIMED_EXTRA_COLUMNS = Object.entries(CLAIMED_EXTRAS);

/** One row of {@link claimedContext}, decoded as drizzle would: the attempt, then the extras. */
function claimedRowOf(values: readonly unknown[]): ClaimedRow {
  const first = tableShape(webhookDeliveries).columns.length;
  const row: Record<string, unknown> = {
    delivery: decodeRowInto<DeliveryRecord>(webhookDeliveries, values),
  };
  for (let index = 0; index < CLAIMED_EXTRA_COLUMNS.length; index += 1) {
    const [key, column] = CLAIMED_EXTRA_COLUMNS[index] as (typeof CLAIMED_EXTRA_COLUMNS)[number];
    const value = values[first + index];
    row[key] = value === null ? null : column.mapFromDriverValue(value);
  }
  return row as unknown as ClaimedRow;
}

/** {@link DeliveryRepository} on SQLite. */
export class SqliteDeliveryRepository implements DeliveryRepository {
  /** Creates the repository over an executor. */
  constructor(
    private readonly run: SqliteExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  insertMany(deliveries: readonly DeliveryRecord[]): Promise<void> {
    return this.run((db) => {
      for (const delivery of deliveries) insertRow(db, webhookDeliveries, delivery);
    });
  }

  countFailedSince(since: Date): Promise<number> {
    return this.run(
      (db) =>
        db
          .select({ count: count() })
          .from(webhookDeliveries)
          .where(and(FAILED_ATTEMPT, gte(webhookDeliveries.attemptedAt, since)))
          .get()?.count ?? 0,
    );
  }

  countPending(): Promise<number> {
    return this.run(
      (db) =>
        db
          .select({ count: count() })
          .from(webhookDeliveries)
          .where(equalsConstant(webhookDeliveries.status, 'pending'))
          .get()?.count ?? 0,
    );
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

  listForEvents(customerId: string, eventIds: readonly string[]): Promise<DeliveryRecord[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.run((db) =>
      db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            inArray(webhookDeliveries.eventId, [...eventIds]),
            eq(webhookDeliveries.customerId, customerId),
          ),
        )
        .orderBy(asc(webhookDeliveries.id))
        .all(),
    );
  }

  listCallbacks(customerId: string, query: DeliveryPageQuery): Promise<DeliveryRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.customerId, customerId),
            isNull(webhookDeliveries.webhookId),
            query.before === undefined ? undefined : lt(webhookDeliveries.id, query.before),
            query.status === undefined ? undefined : eq(webhookDeliveries.status, query.status),
            query.eventId === undefined ? undefined : eq(webhookDeliveries.eventId, query.eventId),
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(query.limit)
        .all(),
    );
  }

  releaseAllLeases(): Promise<number> {
    return this.run(
      (db) =>
        db
          .update(webhookDeliveries)
          .set({ leaseOwner: null, leaseUntil: null })
          .where(
            and(
              equalsConstant(webhookDeliveries.status, 'pending'),
              isNotNull(webhookDeliveries.leaseOwner),
            ),
          )
          .run().changes,
    );
  }

  listDueTargets(now: Date): Promise<string[]> {
    return this.run(
      (db) =>
        cachedStatement(db, 'webhook_deliveries due targets', () => DUE_TARGETS_SQL)
          .pluck()
          .all({ now: now.getTime() }) as string[],
    );
  }

  listDueFor(now: Date, targetKeys: readonly string[], perTarget: number): Promise<DueDelivery[]> {
    return this.run((db) => {
      const at = now.getTime();
      const byWebhook = cachedStatement(
        db,
        'webhook_deliveries due of webhook',
        () => DUE_OF_WEBHOOK_SQL,
      );
      const byUrl = cachedStatement(db, 'webhook_deliveries due of url', () => DUE_OF_URL_SQL);
      const due: DueDelivery[] = [];
      for (const targetKey of targetKeys) {
        const ids = targetKey.startsWith(URL_TARGET_KEY_PREFIX)
          ? byUrl.pluck().all(targetKey.slice(URL_TARGET_KEY_PREFIX.length), at, at, perTarget)
          : byWebhook.pluck().all(targetKey, at, at, perTarget);
        for (const id of ids as string[]) due.push({ id, targetKey });
      }
      return due;
    });
  }

  claim(
    id: string,
    owner: string,
    now: Date,
    leaseUntil: Date,
    options: { ignoreDueTime?: boolean } = {},
  ): Promise<ClaimedDelivery | undefined> {
    return this.run((db) => this.#claim(db, [id], owner, now, leaseUntil, options)[0]);
  }

  claimMany(
    ids: readonly string[],
    owner: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<ClaimedDelivery[]> {
    return this.run((db) => this.#claim(db, ids, owner, now, leaseUntil, {}));
  }

  /** The claims of {@link claim} and {@link claimMany}: one UPDATE, then one read of the taken. */
  #claim(
    db: SqliteOrm,
    ids: readonly string[],
    owner: string,
    now: Date,
    leaseUntil: Date,
    options: { ignoreDueTime?: boolean },
  ): ClaimedDelivery[] {
    if (ids.length === 0) return [];
    const at = now.getTime();
    // One conditional UPDATE: atomic even when several processes share the database file.
    const taken = options.ignoreDueTime
      ? cachedStatement(db, 'webhook_deliveries claim', () => `${CLAIM_SQL} returning id`)
          .pluck()
          .all(owner, leaseUntil.getTime(), JSON.stringify(ids), at)
      : cachedStatement(db, 'webhook_deliveries claim due', () => `${CLAIM_DUE_SQL} returning id`)
          .pluck()
          .all(owner, leaseUntil.getTime(), JSON.stringify(ids), at, at);
    if (taken.length === 0) return [];
    return claimedContext(db)
      .values({ ids: JSON.stringify(taken) })
      .map((values) =>
        toClaimedDelivery(claimedRowOf(values), (sealed) => this.cipher.decrypt(sealed)),
      );
  }

  complete(
    id: string,
    owner: string,
    result: DeliveryResult,
    options: { resetStreak?: boolean } = {},
  ): Promise<boolean> {
    return this.run((db) => {
      const settled =
        updateRows(
          db,
          webhookDeliveries,
          { ...result, leaseOwner: null, leaseUntil: null },
          { id, status: fixed('pending'), leaseOwner: owner },
        ) > 0;
      if (settled && options.resetStreak) {
        cachedStatement(db, 'webhooks reset streak of attempt', () => RESET_STREAK_SQL).run(id);
      }
      return settled;
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
        .where(
          and(eq(webhookDeliveries.id, id), equalsConstant(webhookDeliveries.status, 'pending')),
        )
        .run();
    });
  }
}
