import type { MessageStatus } from '@switchboard/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
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
import type {
  AttemptKey,
  MessageListQuery,
  MessagePatch,
  MessageRecord,
  MessageRepository,
  ScheduledCursor,
  SendOutcomeRecord,
  TransitionOptions,
} from '../message-repository';
import { type OutboundTally, toOutboundTally } from '../message-repository';
import { newestSends } from '../newest-sends';
import type { SqliteExecutor } from './executor';
import { insertRow } from './prepared-insert';
import {
  columnPlaceholder,
  equalsConstant,
  preparedQueries,
  preparedQuery,
} from './prepared-query';
import { updateRows } from './prepared-update';
import { messageAttachmentData, messages } from './schema-messages';
import { decodeRowInto, tableShape } from './table-statements';

/**
 * The instant of the first entry of a message's timeline in one of `statuses` (enum values,
 * written into the statement as literals), picked out by SQLite's JSON functions in array
 * order: the watchdog's sample reads two numbers a send instead of its parsed timeline (decision
 * 0683).
 */
function firstTimelineAt(statuses: readonly MessageStatus[]): SQL<number | null> {
  const literals = sql.raw(statuses.map((status) => `'${status}'`).join(', '));
  return sql<
    number | null
  >`(select json_extract(value, '$.at') from json_each(${messages.timeline}) where json_extract(value, '$.status') in (${literals}) order by key limit 1)`;
}

/** When a message first reached `sent`. */
const SENT_AT = firstTimelineAt(['sent']);
/** When a message first reached `delivered` or `read`. */
const DELIVERED_AT = firstTimelineAt(['delivered', 'read']);

function toRow(record: MessageRecord): typeof messages.$inferInsert {
  const { to, from, ...rest } = record;
  return { ...rest, toAddress: to, fromAddress: from };
}

const customerParam = sql.placeholder('customerId');

/** Messages anyone can see: not deleted, not a suppressed verification code. */
const listable = and(isNull(messages.deletedAt), eq(messages.suppressed, false));

/** Messages of the `customerId` customer can see: not deleted, not a suppressed verification code. */
const visible = and(eq(messages.customerId, customerParam), listable);

/**
 * Newest first: strictly before the cursor (`createdAt`, `id` placeholders) in (created_at, id)
 * order. The leading `created_at <=` bound is redundant but is what SQLite can seek the index
 * with: the OR alone made a deep page scan every newer row (890 ms half-way down 1M messages,
 * 0.3 ms with it).
 */
function beforeCreated(): SQL | undefined {
  const createdAt = columnPlaceholder(messages.createdAt, 'createdAt');
  return and(
    lte(messages.createdAt, createdAt),
    or(
      lt(messages.createdAt, createdAt),
      and(eq(messages.createdAt, createdAt), lt(messages.id, sql.placeholder('id'))),
    ),
  );
}

/** Soonest first: strictly after the cursor in (scheduled_at, id) order (index seek as above). */
function afterScheduled(): SQL | undefined {
  const scheduledAt = columnPlaceholder(messages.scheduledAt, 'scheduledAt');
  return and(
    gte(messages.scheduledAt, scheduledAt),
    or(
      gt(messages.scheduledAt, scheduledAt),
      and(eq(messages.scheduledAt, scheduledAt), gt(messages.id, sql.placeholder('id'))),
    ),
  );
}

/** Which optional filters a page of the list has: one prepared query per combination. */
/** The filters a list page uses: the query is prepared once per combination. */
const LIST_FILTERS = [
  'customerId',
  'status',
  'to',
  'from',
  'channel',
  'createdAfter',
  'createdBefore',
  'after',
] as const;
type ListFilter = (typeof LIST_FILTERS)[number];

/** The filter conditions, each on its named placeholder. */
const LIST_CONDITIONS: Record<ListFilter, () => SQL | undefined> = {
  customerId: () => eq(messages.customerId, customerParam),
  status: () => eq(messages.status, sql.placeholder('status')),
  to: () => eq(messages.toAddress, sql.placeholder('to')),
  from: () => eq(messages.fromAddress, sql.placeholder('from')),
  channel: () => eq(messages.channel, sql.placeholder('channel')),
  createdAfter: () =>
    gte(messages.createdAt, columnPlaceholder(messages.createdAt, 'createdAfter')),
  createdBefore: () =>
    lt(messages.createdAt, columnPlaceholder(messages.createdAt, 'createdBefore')),
  after: beforeCreated,
};

const listPage = preparedQueries((db, shape: string) => {
  const used = new Set(shape.split('|'));
  return db
    .select()
    .from(messages)
    .where(
      and(
        listable,
        ...LIST_FILTERS.filter((name) => used.has(name)).map((name) => LIST_CONDITIONS[name]()),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(sql.placeholder('limit'))
    .prepare();
});

const scheduledPage = preparedQueries((db, shape: 'first' | 'after') =>
  db
    .select()
    .from(messages)
    .where(
      and(
        visible,
        equalsConstant(messages.status, 'scheduled'),
        shape === 'after' ? afterScheduled() : undefined,
      ),
    )
    .orderBy(asc(messages.scheduledAt), asc(messages.id))
    .limit(sql.placeholder('limit'))
    .prepare(),
);

const messageByExternalId = preparedQuery((db) =>
  db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.instanceId, sql.placeholder('instanceId')),
        eq(messages.externalId, sql.placeholder('externalId')),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1)
    .prepare(),
);

const messageById = preparedQuery((db) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.customerId, customerParam), eq(messages.id, sql.placeholder('id'))))
    .prepare(),
);

const messageByIdInAnyCustomer = preparedQuery((db) =>
  db
    .select()
    .from(messages)
    .where(eq(messages.id, sql.placeholder('id')))
    .prepare(),
);

const messageByIdempotencyKey = preparedQuery((db) =>
  db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.customerId, customerParam),
        eq(messages.idempotencyKey, sql.placeholder('key')),
      ),
    )
    .prepare(),
);

/** The record's name of each column, in declaration order (`to` and `from` for the addresses). */
const RECORD_KEYS = tableShape(messages).columns.map(({ key }) =>
  key === 'toAddress' ? 'to' : key === 'fromAddress' ? 'from' : key,
);

/**
 * The records of rows read as arrays (a prepared select's `values()`): decoded straight into
 * records by {@link decodeRowInto}, which skips drizzle's per-field checks (a 50-row page in 60 %
 * of the time) and the copy a renaming of the decoded row would make.
 */
function toRecords(rows: unknown[][]): MessageRecord[] {
  return rows.map((values) => decodeRowInto<MessageRecord>(messages, values, RECORD_KEYS));
}

/** {@link MessageRepository} on SQLite. */
export class SqliteMessageRepository implements MessageRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(message: MessageRecord): Promise<boolean> {
    return this.run((db) => {
      // The partial unique index on (customer_id, idempotency_key) turns a concurrent duplicate
      // into "nothing inserted" instead of a second message.
      return insertRow(db, messages, toRow(message), 'nothing') > 0;
    });
  }

  findById(customerId: string, id: string): Promise<MessageRecord | undefined> {
    return this.run((db) => {
      return toRecords(messageById(db).values({ customerId, id }))[0];
    });
  }

  findByIdInAnyCustomer(id: string): Promise<MessageRecord | undefined> {
    return this.run((db) => {
      return toRecords(messageByIdInAnyCustomer(db).values({ id }))[0];
    });
  }

  findByIdempotencyKey(customerId: string, key: string): Promise<MessageRecord | undefined> {
    return this.run((db) => {
      return toRecords(messageByIdempotencyKey(db).values({ customerId, key }))[0];
    });
  }

  findByExternalId(instanceId: string, externalId: string): Promise<MessageRecord | undefined> {
    return this.run((db) => {
      return toRecords(messageByExternalId(db).values({ instanceId, externalId }))[0];
    });
  }

  list(customerId: string | undefined, query: MessageListQuery): Promise<MessageRecord[]> {
    const { after, limit, ...filters } = query;
    const used: Partial<Record<ListFilter, unknown>> = { ...filters, customerId, after };
    const shape = LIST_FILTERS.filter((name) => used[name] !== undefined).join('|');
    return this.run((db) =>
      toRecords(
        listPage(db, shape).values({
          ...filters,
          customerId,
          limit,
          createdAt: after?.createdAt,
          id: after?.id,
        }),
      ),
    );
  }

  listScheduled(
    customerId: string,
    query: { limit: number; after?: ScheduledCursor },
  ): Promise<MessageRecord[]> {
    const { after, limit } = query;
    return this.run((db) =>
      toRecords(
        scheduledPage(db, after === undefined ? 'first' : 'after').values({
          customerId,
          limit,
          scheduledAt: after?.scheduledAt,
          id: after?.id,
        }),
      ),
    );
  }

  tallyOutboundSince(since: Date): Promise<OutboundTally> {
    return this.run((db) =>
      toOutboundTally(
        db
          .select({
            status: messages.status,
            fallback: messages.fallbackTriggered,
            count: count(),
          })
          .from(messages)
          .where(and(gte(messages.createdAt, since), eq(messages.direction, 'outbound')))
          // `+status`: grouped by the bare column, SQLite walks the whole status index rather
          // than the window's range of messages_created_idx.
          .groupBy(sql`+${messages.status}`, messages.fallbackTriggered)
          .all(),
      ),
    );
  }

  countByStatus(
    statuses: readonly MessageStatus[],
  ): Promise<Partial<Record<MessageStatus, number>>> {
    return this.run((db) => {
      const counts: Partial<Record<MessageStatus, number>> = {};
      for (const row of db
        .select({ status: messages.status, count: count() })
        .from(messages)
        .where(inArray(messages.status, [...statuses]))
        .groupBy(messages.status)
        .all()) {
        counts[row.status] = row.count;
      }
      return counts;
    });
  }

  idsInStatus(statuses: readonly MessageStatus[], limit: number): Promise<string[]> {
    return this.run((db) =>
      db
        .select({ id: messages.id })
        .from(messages)
        .where(and(inArray(messages.status, [...statuses]), isNull(messages.deletedAt)))
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(limit)
        .all()
        .map((row) => row.id),
    );
  }

  dueScheduledIds(now: Date, limit: number): Promise<string[]> {
    return this.run((db) =>
      db
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            equalsConstant(messages.status, 'scheduled'),
            lte(messages.scheduledAt, now),
            isNull(messages.deletedAt),
          ),
        )
        .orderBy(asc(messages.scheduledAt), asc(messages.id))
        .limit(limit)
        .all()
        .map((row) => row.id),
    );
  }

  recentSends(
    instanceId: string,
    statuses: readonly MessageStatus[],
    since: Date,
    limit: number,
  ): Promise<SendOutcomeRecord[]> {
    // One query a status, each newest first from (status, updated_at) and stopped at `limit`.
    return this.run((db) =>
      newestSends(
        statuses.map((status) =>
          db
            .select({
              from: messages.fromAddress,
              channel: messages.channel,
              status: messages.status,
              sentAt: SENT_AT,
              deliveredAt: DELIVERED_AT,
              updatedAt: messages.updatedAt,
              id: messages.id,
            })
            .from(messages)
            .where(
              and(
                eq(messages.status, status),
                eq(messages.direction, 'outbound'),
                eq(messages.instanceId, instanceId),
                isNotNull(messages.channel),
                gt(messages.updatedAt, since),
              ),
            )
            .orderBy(desc(messages.updatedAt), desc(messages.id))
            .limit(limit)
            .all()
            .flatMap((row) => (row.channel === null ? [] : [{ ...row, channel: row.channel }])),
        ),
        limit,
      ),
    );
  }

  unsettledSince(
    statuses: readonly MessageStatus[],
    since: Date,
    limit: number,
  ): Promise<string[]> {
    return this.run((db) =>
      db
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            inArray(messages.status, [...statuses]),
            eq(messages.direction, 'outbound'),
            isNotNull(messages.externalId),
            gt(messages.updatedAt, since),
          ),
        )
        .orderBy(asc(messages.updatedAt), asc(messages.id))
        .limit(limit)
        .all()
        .map((row) => row.id),
    );
  }

  staleIds(status: MessageStatus, before: Date, limit: number): Promise<string[]> {
    return this.run((db) =>
      db
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.status, status),
            lte(messages.updatedAt, before),
            isNull(messages.deletedAt),
          ),
        )
        .orderBy(asc(messages.updatedAt), asc(messages.id))
        .limit(limit)
        .all()
        .map((row) => row.id),
    );
  }

  claimStale(id: string, status: MessageStatus, before: Date, now: Date): Promise<boolean> {
    return this.run(
      (db) =>
        db
          .update(messages)
          .set({ updatedAt: now })
          .where(
            and(eq(messages.id, id), eq(messages.status, status), lte(messages.updatedAt, before)),
          )
          .run().changes > 0,
    );
  }

  transition(
    id: string,
    from: readonly MessageStatus[],
    patch: MessagePatch,
    options: TransitionOptions = {},
  ): Promise<boolean> {
    return this.run(
      (db) =>
        updateRows(db, messages, patch, {
          id,
          status: from,
          deletedAt: options.includeDeleted ? undefined : null,
          retryCount: options.retryCount,
        }) > 0,
    );
  }

  recordProviderId(
    id: string,
    attempt: AttemptKey,
    externalId: string,
    segments?: number,
  ): Promise<void> {
    const current = { id, retryCount: attempt.retryCount, channel: attempt.channel };
    return this.run((db) => {
      const patch = { externalId, ...(segments === undefined ? {} : { segments }) };
      if (updateRows(db, messages, patch, { ...current, externalId: null }) > 0) return;
      // The same id recorded already (a guard: early status updates wait on the attempt now):
      // the segment count still belongs here.
      if (segments !== undefined)
        updateRows(db, messages, { segments }, { ...current, externalId });
    });
  }

  update(id: string, patch: MessagePatch): Promise<void> {
    return this.run((db) => {
      updateRows(db, messages, patch, { id });
    });
  }

  insertAttachmentData(messageId: string, position: number, data: Uint8Array): Promise<void> {
    return this.run((db) => {
      db.insert(messageAttachmentData)
        .values({ messageId, position, data: Buffer.from(data) })
        .run();
    });
  }

  attachmentData(messageId: string): Promise<Map<number, Uint8Array>> {
    return this.run((db) => {
      const rows = db
        .select()
        .from(messageAttachmentData)
        .where(eq(messageAttachmentData.messageId, messageId))
        .all();
      return new Map(rows.map((row) => [row.position, new Uint8Array(row.data)]));
    });
  }
}
