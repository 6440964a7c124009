import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import {
  type ClaimedDelivery,
  type DeliveryPageQuery,
  type DeliveryRecord,
  type DeliveryRepository,
  type DeliveryResult,
  type DueDelivery,
  toClaimedDelivery,
  URL_TARGET_KEY_PREFIX,
} from '../delivery-repository';
import { changed, first, type PgExecutor, type PgOrm } from './pg-executor';
import { pgPreparedQuery, preparedInsert } from './pg-prepared-query';
import { customers } from './pg-schema';
import { events, webhookDeliveries, webhooks } from './pg-schema-events';

/** A failed attempt, written as the partial index `webhook_deliveries_failed_attempted_idx` is. */
const FAILED_ATTEMPT = sql`${webhookDeliveries.status} in ('retrying', 'failed')`;

const leaseIsFree = (now: Date | SQL) =>
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

/** The receiver of an attempt as a target key: its webhook's id, or `url:<callbackUrl>`. */
const targetKeyOf = sql<string>`coalesce(${webhookDeliveries.webhookId}, ${sql.raw(`'${URL_TARGET_KEY_PREFIX}'`)} || ${webhookDeliveries.targetUrl})`;

const insertDelivery = preparedInsert(webhookDeliveries);

/** A value bound as it is (pg encodes a `Date` or null itself), not through the column. */
const raw = (name: string) => sql`${sql.placeholder(name)}`;

/** Every column of an attempt, read from `cte` (a `WITH` of its table's rows) by the same names. */
function columnsOf<C extends Record<DeliveryColumn, unknown>>(cte: C): Pick<C, DeliveryColumn> {
  const columns = {} as Pick<C, DeliveryColumn>;
  for (const name of Object.keys(getTableColumns(webhookDeliveries)) as DeliveryColumn[]) {
    columns[name] = cte[name];
  }
  return columns;
}
type DeliveryColumn = keyof typeof webhookDeliveries._.columns;

/**
 * The claim of the attempts of an array of ids (each taken when pending, its lease free and,
 * unless ignored, due) and what each needs to be sent (its event, its receiver, its customer's
 * state), in one statement: one round trip, atomic on its own, so it needs no transaction.
 */
const claimOne = (ignoreDueTime: boolean, single: boolean) =>
  pgPreparedQuery((db) => {
    const taken = db.$with('taken').as(
      db
        .update(webhookDeliveries)
        .set({ leaseOwner: raw('owner'), leaseUntil: raw('leaseUntil') })
        .where(
          and(
            single
              ? eq(webhookDeliveries.id, sql.placeholder('id'))
              : sql`${webhookDeliveries.id} = any(${sql.placeholder('ids')}::text[])`,
            eq(webhookDeliveries.status, 'pending'),
            leaseIsFree(raw('now')),
            ignoreDueTime ? undefined : lte(webhookDeliveries.nextAttemptAt, raw('now')),
          ),
        )
        .returning(),
    );
    return db
      .with(taken)
      .select({
        delivery: columnsOf(taken),
        payload: events.payload,
        correlationId: events.correlationId,
        customerDeletedAt: customers.deletedAt,
        webhookUrl: webhooks.url,
        webhookSecret: webhooks.secret,
        webhookActive: webhooks.active,
      })
      .from(taken)
      .innerJoin(events, eq(events.id, taken.eventId))
      .innerJoin(customers, eq(customers.id, events.customerId))
      .leftJoin(webhooks, eq(webhooks.id, taken.webhookId))
      .prepare('');
  });
/**
 * The claims of one id and of several: PostgreSQL keeps one plan of a named statement when it
 * costs no more than planning each run, which an id compared with `=` does and an array of ids,
 * costed at ten, never does (decision 0608).
 */
const claims = {
  due: { one: claimOne(false, true), many: claimOne(false, false) },
  anyTime: { one: claimOne(true, true), many: claimOne(true, false) },
};

/** Every field of an attempt's result, as a placeholder of its own name. */
const settlement: Readonly<Record<keyof DeliveryResult, SQL>> = {
  status: raw('status'),
  statusCode: raw('statusCode'),
  durationMs: raw('durationMs'),
  error: raw('error'),
  responseBody: raw('responseBody'),
  attemptedAt: raw('attemptedAt'),
  nextAttemptAt: raw('nextAttemptAt'),
};

/** The settlement of a claimed attempt, by its lease owner only. */
const settleOne = (db: PgOrm) =>
  db
    .update(webhookDeliveries)
    .set({ ...settlement, leaseOwner: null, leaseUntil: null })
    .where(
      and(
        eq(webhookDeliveries.id, sql.placeholder('id')),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.leaseOwner, sql.placeholder('owner')),
      ),
    );
const completeOne = pgPreparedQuery((db) => settleOne(db).prepare(''));

/**
 * {@link completeOne} and, when it settled the attempt, the end of its webhook's streak of
 * exhausted chains (no write when there is none), in one statement: PostgreSQL runs every
 * data-modifying `WITH` once, to completion, whether the query reads it or not.
 */
const completeAndResetStreak = pgPreparedQuery((db) => {
  const settled = db
    .$with('settled')
    .as(settleOne(db).returning({ webhookId: webhookDeliveries.webhookId }));
  const reset = db.$with('reset').as(
    db
      .update(webhooks)
      .set({ exhaustedChains: 0 })
      .where(
        and(
          inArray(webhooks.id, db.select({ id: settled.webhookId }).from(settled)),
          ne(webhooks.exhaustedChains, 0),
        ),
      )
      .returning({ id: webhooks.id }),
  );
  return db.with(settled, reset).select({ settled: count() }).from(settled).prepare('');
});

/** {@link DeliveryRepository} on PostgreSQL. */
export class PgDeliveryRepository implements DeliveryRepository {
  /** Creates the repository over an executor; `cipher` opens the webhooks' secrets. */
  constructor(
    private readonly run: PgExecutor,
    private readonly cipher: FieldCipher,
  ) {}

  insertMany(deliveries: readonly DeliveryRecord[]): Promise<void> {
    return this.run(async (db) => {
      // One receiver, as for most events, takes the statement prepared once; more take one insert.
      const [only] = deliveries;
      if (deliveries.length === 1 && only) await insertDelivery(db, only);
      else if (deliveries.length > 1) await db.insert(webhookDeliveries).values([...deliveries]);
    });
  }

  countFailedSince(since: Date): Promise<number> {
    return this.run(async (db) => {
      const [row] = await db
        .select({ count: count() })
        .from(webhookDeliveries)
        .where(and(FAILED_ATTEMPT, gte(webhookDeliveries.attemptedAt, since)));
      return row?.count ?? 0;
    });
  }

  countPending(): Promise<number> {
    return this.run(async (db) => {
      const [row] = await db
        .select({ count: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'pending'));
      return row?.count ?? 0;
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
        .limit(1)
        .then(first),
    );
  }

  listForWebhook(
    customerId: string,
    webhookId: string,
    query: DeliveryPageQuery,
  ): Promise<DeliveryRecord[]> {
    return this.#page(
      ofWebhook(customerId, webhookId, ...this.#pageConditions(query)),
      query.limit,
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
        .orderBy(asc(webhookDeliveries.id)),
    );
  }

  listCallbacks(customerId: string, query: DeliveryPageQuery): Promise<DeliveryRecord[]> {
    return this.#page(
      and(
        eq(webhookDeliveries.customerId, customerId),
        isNull(webhookDeliveries.webhookId),
        ...this.#pageConditions(query),
      ),
      query.limit,
    );
  }

  releaseAllLeases(): Promise<number> {
    return this.run(async (db) =>
      changed(
        await db
          .update(webhookDeliveries)
          .set({ leaseOwner: null, leaseUntil: null })
          .where(
            and(eq(webhookDeliveries.status, 'pending'), isNotNull(webhookDeliveries.leaseOwner)),
          ),
      ),
    );
  }

  listDueTargets(now: Date): Promise<string[]> {
    return this.run(async (db) =>
      (
        await db
          .selectDistinct({ key: targetKeyOf })
          .from(webhookDeliveries)
          .where(
            and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)),
          )
          .orderBy(targetKeyOf)
      ).map((row) => row.key),
    );
  }

  listDueFor(now: Date, targetKeys: readonly string[], perTarget: number): Promise<DueDelivery[]> {
    return this.run(async (db) => {
      const due: DueDelivery[] = [];
      for (const targetKey of targetKeys) {
        const receiver = targetKey.startsWith(URL_TARGET_KEY_PREFIX)
          ? and(
              isNull(webhookDeliveries.webhookId),
              eq(webhookDeliveries.targetUrl, targetKey.slice(URL_TARGET_KEY_PREFIX.length)),
            )
          : and(eq(webhookDeliveries.webhookId, targetKey), isNull(webhookDeliveries.targetUrl));
        const rows = await db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(and(receiver, isDue(now)))
          .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id)
          .limit(perTarget);
        for (const { id } of rows) due.push({ id, targetKey });
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
    return this.run(
      async (db) => (await this.#claim(db, [id], owner, now, leaseUntil, options))[0],
    );
  }

  claimMany(
    ids: readonly string[],
    owner: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<ClaimedDelivery[]> {
    return this.run((db) => this.#claim(db, ids, owner, now, leaseUntil, {}));
  }

  /** The claims of {@link claim} and {@link claimMany}, in one statement. */
  async #claim(
    db: PgOrm,
    ids: readonly string[],
    owner: string,
    now: Date,
    leaseUntil: Date,
    options: { ignoreDueTime?: boolean },
  ): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    // One conditional UPDATE: of several processes claiming the same attempt, PostgreSQL lets
    // exactly one change the row; the others see the lease taken, change nothing, read nothing.
    const claim = claims[options.ignoreDueTime ? 'anyTime' : 'due'];
    const [only] = ids;
    const rows =
      ids.length === 1
        ? await claim.one(db).execute({ id: only, owner, leaseUntil, now })
        : await claim.many(db).execute({ ids, owner, leaseUntil, now });
    return rows.map((context) =>
      toClaimedDelivery(context, (sealed) => this.cipher.decrypt(sealed)),
    );
  }

  complete(
    id: string,
    owner: string,
    result: DeliveryResult,
    options: { resetStreak?: boolean } = {},
  ): Promise<boolean> {
    return this.run(async (db) => {
      const values = { ...result, id, owner };
      if (!options.resetStreak) return changed(await completeOne(db).execute(values)) > 0;
      const [row] = await completeAndResetStreak(db).execute(values);
      return (row?.settled ?? 0) > 0;
    });
  }

  listOverdue(now: Date): Promise<Array<{ id: string; dueAt: number }>> {
    return this.run(async (db) =>
      (
        await db
          .select({ id: webhookDeliveries.id, dueAt: webhookDeliveries.nextAttemptAt })
          .from(webhookDeliveries)
          .where(isDue(now))
          .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id)
      ).map((row) => ({ id: row.id, dueAt: row.dueAt?.getTime() ?? now.getTime() })),
    );
  }

  reschedule(id: string, at: Date): Promise<void> {
    return this.run(async (db) => {
      await db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: at })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
    });
  }

  #pageConditions(query: DeliveryPageQuery): (SQL | undefined)[] {
    return [
      query.before === undefined ? undefined : lt(webhookDeliveries.id, query.before),
      query.status === undefined ? undefined : eq(webhookDeliveries.status, query.status),
      query.eventId === undefined ? undefined : eq(webhookDeliveries.eventId, query.eventId),
    ];
  }

  /** Newest first: UUID v7 ids grow with creation time, so id order is creation order. */
  #page(where: SQL | undefined, limit: number): Promise<DeliveryRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.id))
        .limit(limit),
    );
  }
}
