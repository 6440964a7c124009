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
import { changed, first, type PgExecutor } from './pg-executor';
import { preparedFirstBy, preparedInsert, preparedUpdate } from './pg-prepared-query';
import { messageAttachmentData, messages } from './pg-schema-messages';

/**
 * The instant of the first entry of a message's timeline in one of `statuses` (enum values,
 * written into the statement as literals), picked out by PostgreSQL's JSON functions in array
 * order: the watchdog's sample reads two numbers a send instead of its parsed timeline (decision
 * 0683).
 */
function firstTimelineAt(statuses: readonly MessageStatus[]): SQL<number | null> {
  const literals = sql.raw(statuses.map((status) => `'${status}'`).join(', '));
  return sql<
    number | null
  >`(select (entry.value ->> 'at')::float8 from json_array_elements(${messages.timeline}) with ordinality as entry(value, position) where entry.value ->> 'status' in (${literals}) order by entry.position limit 1)`;
}

/** When a message first reached `sent`. */
const SENT_AT = firstTimelineAt(['sent']);
/** When a message first reached `delivered` or `read`. */
const DELIVERED_AT = firstTimelineAt(['delivered', 'read']);

type MessageRow = typeof messages.$inferSelect;

/** The record of a row of `messages` (the addresses under their record names). */
export function toRecord(row: MessageRow): MessageRecord {
  const { toAddress, fromAddress, ...rest } = row;
  return { ...rest, to: toAddress, from: fromAddress };
}

function toRow(record: MessageRecord): typeof messages.$inferInsert {
  const { to, from, ...rest } = record;
  return { ...rest, toAddress: to, fromAddress: from };
}

/** Messages of `customerId` the customer can see: not deleted, not a suppressed verification code. */
const visible = (customerId: string) =>
  and(
    eq(messages.customerId, customerId),
    isNull(messages.deletedAt),
    eq(messages.suppressed, false),
  );

const insertMessage = preparedInsert(messages, { onConflictDoNothing: true });

/**
 * A message by id in retry `$retryCount` on channel `$channel`, with no provider id yet
 * (`unset`) or with provider id `$externalId` (`recorded`).
 */
const updateOfAttempt = preparedUpdate(messages, (variant: 'unset' | 'recorded') =>
  and(
    eq(messages.id, sql.placeholder('$id')),
    eq(messages.retryCount, sql.placeholder('$retryCount')),
    eq(messages.channel, sql.placeholder('$channel')),
    variant === 'unset'
      ? isNull(messages.externalId)
      : eq(messages.externalId, sql.placeholder('$externalId')),
  ),
);

/** A message by id (any change of it). */
const updateById = preparedUpdate(messages, () => eq(messages.id, sql.placeholder('$id')));

/**
 * A variant of {@link updateInStatus}: how many statuses (placeholders `$from0`…), then
 * `+deleted` when a deleted message changes too, `+retry` when only retry `$retryCount` does.
 */
type InStatusVariant = `${number}${'' | '+deleted'}${'' | '+retry'}`;

/** A message by id in one of `from`'s statuses (see {@link InStatusVariant}). */
const updateInStatus = preparedUpdate(messages, (variant: InStatusVariant) => {
  const statuses = Number.parseInt(variant, 10);
  return and(
    eq(messages.id, sql.placeholder('$id')),
    inArray(
      messages.status,
      Array.from({ length: statuses }, (_, index) => sql.placeholder(`$from${index}`)),
    ),
    variant.includes('+deleted') ? undefined : isNull(messages.deletedAt),
    variant.includes('+retry')
      ? eq(messages.retryCount, sql.placeholder('$retryCount'))
      : undefined,
  );
});

const messageById = preparedFirstBy(messages, {
  customerId: messages.customerId,
  id: messages.id,
});
const messageByIdInAnyCustomer = preparedFirstBy(messages, { id: messages.id });
const messageByIdempotencyKey = preparedFirstBy(messages, {
  customerId: messages.customerId,
  idempotencyKey: messages.idempotencyKey,
});

/** {@link MessageRepository} on PostgreSQL. */
export class PgMessageRepository implements MessageRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(message: MessageRecord): Promise<boolean> {
    const row = toRow(message);
    return this.run(async (db) => {
      // The partial unique index on (customer_id, idempotency_key) turns a concurrent duplicate
      // into "nothing inserted" instead of a second message.
      return (await insertMessage(db, row)) > 0;
    });
  }

  findById(customerId: string, id: string): Promise<MessageRecord | undefined> {
    return this.run(async (db) => {
      const row = await messageById(db, { customerId, id });
      return row && toRecord(row);
    });
  }

  findByIdInAnyCustomer(id: string): Promise<MessageRecord | undefined> {
    return this.run(async (db) => {
      const row = await messageByIdInAnyCustomer(db, { id });
      return row && toRecord(row);
    });
  }

  findByIdempotencyKey(customerId: string, key: string): Promise<MessageRecord | undefined> {
    return this.run(async (db) => {
      const row = await messageByIdempotencyKey(db, { customerId, idempotencyKey: key });
      return row && toRecord(row);
    });
  }

  findByExternalId(instanceId: string, externalId: string): Promise<MessageRecord | undefined> {
    return this.run(async (db) => {
      const row = await db
        .select()
        .from(messages)
        .where(and(eq(messages.instanceId, instanceId), eq(messages.externalId, externalId)))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1)
        .then(first);
      return row && toRecord(row);
    });
  }

  list(customerId: string | undefined, query: MessageListQuery): Promise<MessageRecord[]> {
    const { status, to, from, channel, createdAfter, createdBefore, after, limit } = query;
    return this.run(async (db) =>
      (
        await db
          .select()
          .from(messages)
          .where(
            and(
              customerId === undefined ? undefined : eq(messages.customerId, customerId),
              isNull(messages.deletedAt),
              eq(messages.suppressed, false),
              status === undefined ? undefined : eq(messages.status, status),
              to === undefined ? undefined : eq(messages.toAddress, to),
              from === undefined ? undefined : eq(messages.fromAddress, from),
              channel === undefined ? undefined : eq(messages.channel, channel),
              createdAfter === undefined ? undefined : gte(messages.createdAt, createdAfter),
              createdBefore === undefined ? undefined : lt(messages.createdAt, createdBefore),
              after === undefined
                ? undefined
                : or(
                    lt(messages.createdAt, after.createdAt),
                    and(eq(messages.createdAt, after.createdAt), lt(messages.id, after.id)),
                  ),
            ),
          )
          .orderBy(desc(messages.createdAt), desc(messages.id))
          .limit(limit)
      ).map(toRecord),
    );
  }

  listScheduled(
    customerId: string,
    query: { limit: number; after?: ScheduledCursor },
  ): Promise<MessageRecord[]> {
    const { after, limit } = query;
    return this.run(async (db) =>
      (
        await db
          .select()
          .from(messages)
          .where(
            and(
              visible(customerId),
              eq(messages.status, 'scheduled'),
              after === undefined
                ? undefined
                : or(
                    gt(messages.scheduledAt, after.scheduledAt),
                    and(eq(messages.scheduledAt, after.scheduledAt), gt(messages.id, after.id)),
                  ),
            ),
          )
          .orderBy(asc(messages.scheduledAt), asc(messages.id))
          .limit(limit)
      ).map(toRecord),
    );
  }

  tallyOutboundSince(since: Date): Promise<OutboundTally> {
    return this.run(async (db) =>
      toOutboundTally(
        await db
          .select({
            status: messages.status,
            fallback: messages.fallbackTriggered,
            count: count(),
          })
          .from(messages)
          .where(and(gte(messages.createdAt, since), eq(messages.direction, 'outbound')))
          .groupBy(messages.status, messages.fallbackTriggered),
      ),
    );
  }

  countByStatus(
    statuses: readonly MessageStatus[],
  ): Promise<Partial<Record<MessageStatus, number>>> {
    return this.run(async (db) => {
      const counts: Partial<Record<MessageStatus, number>> = {};
      for (const row of await db
        .select({ status: messages.status, count: count() })
        .from(messages)
        .where(inArray(messages.status, [...statuses]))
        .groupBy(messages.status)) {
        counts[row.status] = row.count;
      }
      return counts;
    });
  }

  idsInStatus(statuses: readonly MessageStatus[], limit: number): Promise<string[]> {
    return this.#ids(
      and(inArray(messages.status, [...statuses]), isNull(messages.deletedAt)),
      [asc(messages.createdAt), asc(messages.id)],
      limit,
    );
  }

  dueScheduledIds(now: Date, limit: number): Promise<string[]> {
    return this.#ids(
      and(
        eq(messages.status, 'scheduled'),
        lte(messages.scheduledAt, now),
        isNull(messages.deletedAt),
      ),
      [asc(messages.scheduledAt), asc(messages.id)],
      limit,
    );
  }

  recentSends(
    instanceId: string,
    statuses: readonly MessageStatus[],
    since: Date,
    limit: number,
  ): Promise<SendOutcomeRecord[]> {
    // One query a status, each newest first from (status, updated_at) and stopped at `limit`;
    // one after the other, as they may share a transaction's connection.
    return this.run(async (db) => {
      const lists = [];
      for (const status of statuses) {
        const rows = await db
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
          .limit(limit);
        lists.push(
          rows.flatMap((row) => (row.channel === null ? [] : [{ ...row, channel: row.channel }])),
        );
      }
      return newestSends(lists, limit);
    });
  }

  unsettledSince(
    statuses: readonly MessageStatus[],
    since: Date,
    limit: number,
  ): Promise<string[]> {
    return this.#ids(
      and(
        inArray(messages.status, [...statuses]),
        eq(messages.direction, 'outbound'),
        isNotNull(messages.externalId),
        gt(messages.updatedAt, since),
      ),
      [asc(messages.updatedAt), asc(messages.id)],
      limit,
    );
  }

  staleIds(status: MessageStatus, before: Date, limit: number): Promise<string[]> {
    return this.#ids(
      and(eq(messages.status, status), lte(messages.updatedAt, before), isNull(messages.deletedAt)),
      [asc(messages.updatedAt), asc(messages.id)],
      limit,
    );
  }

  claimStale(id: string, status: MessageStatus, before: Date, now: Date): Promise<boolean> {
    return this.run(async (db) => {
      // PostgreSQL re-checks the condition on the row it locked: one racer changes it.
      const result = await db
        .update(messages)
        .set({ updatedAt: now })
        .where(
          and(eq(messages.id, id), eq(messages.status, status), lte(messages.updatedAt, before)),
        );
      return changed(result) > 0;
    });
  }

  transition(
    id: string,
    from: readonly MessageStatus[],
    patch: MessagePatch,
    options: TransitionOptions = {},
  ): Promise<boolean> {
    if (from.length === 0) return Promise.resolve(false);
    const keys: Record<`$${string}`, unknown> = { $id: id };
    for (const [index, status] of from.entries()) keys[`$from${index}`] = status;
    if (options.retryCount !== undefined) keys.$retryCount = options.retryCount;
    const variant: InStatusVariant = `${from.length}${options.includeDeleted ? '+deleted' : ''}${options.retryCount === undefined ? '' : '+retry'}`;
    return this.run(async (db) => (await updateInStatus(db, patch, keys, variant)) > 0);
  }

  recordProviderId(
    id: string,
    attempt: AttemptKey,
    externalId: string,
    segments?: number,
  ): Promise<void> {
    const keys = { $id: id, $retryCount: attempt.retryCount, $channel: attempt.channel };
    return this.run(async (db) => {
      const patch = { externalId, ...(segments === undefined ? {} : { segments }) };
      if ((await updateOfAttempt(db, patch, keys, 'unset')) > 0) return;
      // The same id recorded already (a guard: early status updates wait on the attempt now):
      // the segment count still belongs here.
      if (segments !== undefined) {
        await updateOfAttempt(db, { segments }, { ...keys, $externalId: externalId }, 'recorded');
      }
    });
  }

  update(id: string, patch: MessagePatch): Promise<void> {
    return this.run(async (db) => {
      await updateById(db, patch, { $id: id });
    });
  }

  insertAttachmentData(messageId: string, position: number, data: Uint8Array): Promise<void> {
    return this.run(async (db) => {
      await db
        .insert(messageAttachmentData)
        .values({ messageId, position, data: Buffer.from(data) });
    });
  }

  attachmentData(messageId: string): Promise<Map<number, Uint8Array>> {
    return this.run(async (db) => {
      const rows = await db
        .select()
        .from(messageAttachmentData)
        .where(eq(messageAttachmentData.messageId, messageId));
      return new Map(rows.map((row) => [row.position, new Uint8Array(row.data)]));
    });
  }

  #ids(where: SQL | undefined, order: SQL[], limit: number): Promise<string[]> {
    return this.run(async (db) =>
      (
        await db
          .select({ id: messages.id })
          .from(messages)
          .where(where)
          .orderBy(...order)
          .limit(limit)
      ).map((row) => row.id),
    );
  }
}
