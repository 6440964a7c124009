import { type SQL, sql } from 'drizzle-orm';
import type {
  PruneBatch,
  PruneWindow,
  RetentionOverrideRecord,
  RetentionRepository,
} from './retention-repository';
import type { SqlSession } from './sql-session';

/** A row of `customer_retention`. */
interface OverrideRow {
  customer_id: string;
  event_log_ms: number | string | null;
  delivery_log_ms: number | string | null;
  inbound_attachments_ms: number | string | null;
  message_content_ms: number | string | null;
  updated_at: number | string | Date;
}

const DAY_MS = 86_400_000;

/** Milliseconds as stored → days (null stays null). */
function days(ms: number | string | null): number | null {
  return ms === null ? null : Number(ms) / DAY_MS;
}

/** Days → milliseconds as stored. */
function ms(value: number | null): number | null {
  return value === null ? null : Math.round(value * DAY_MS);
}

/** The override a row holds. */
function toOverride(row: OverrideRow): RetentionOverrideRecord {
  return {
    customerId: row.customer_id,
    periods: {
      eventLog: days(row.event_log_ms),
      deliveryLog: days(row.delivery_log_ms),
      inboundAttachments: days(row.inbound_attachments_ms),
      messageContent: days(row.message_content_ms),
    },
    updatedAt: new Date(row.updated_at),
  };
}

/** `a, b, c` as bound parameters. */
function list(values: readonly string[]): SQL {
  return sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
}

/** The batch a selection of `rows` (ordered by creation) makes, `removed` of them gone. */
function batchOf(rows: ReadonlyArray<{ created_at: unknown }>, removed: number): PruneBatch {
  const last = rows.at(-1);
  return {
    scanned: rows.length,
    removed,
    until: last ? new Date(last.created_at as string | number | Date) : null,
  };
}

/** {@link RetentionRepository} written once for both stores over a {@link SqlSession}. */
export class SqlRetentionRepository implements RetentionRepository {
  /** The repository over `session`. */
  constructor(private readonly session: SqlSession) {}

  async customerIds(): Promise<string[]> {
    const rows = await this.session.rows<{ id: string }>(sql`select id from customers order by id`);
    return rows.map((row) => row.id);
  }

  async overrides(): Promise<RetentionOverrideRecord[]> {
    const rows = await this.session.rows<OverrideRow>(sql`select * from customer_retention`);
    return rows.map(toOverride);
  }

  async findOverride(customerId: string): Promise<RetentionOverrideRecord | undefined> {
    const rows = await this.session.rows<OverrideRow>(
      sql`select * from customer_retention where customer_id = ${customerId}`,
    );
    const [row] = rows;
    return row ? toOverride(row) : undefined;
  }

  async saveOverride(record: RetentionOverrideRecord): Promise<void> {
    const { periods } = record;
    await this.session.execute(
      sql`insert into customer_retention (customer_id, event_log_ms, delivery_log_ms, inbound_attachments_ms, message_content_ms, updated_at)
        values (${record.customerId}, ${ms(periods.eventLog)}, ${ms(periods.deliveryLog)}, ${ms(periods.inboundAttachments)}, ${ms(periods.messageContent)}, ${this.session.time(record.updatedAt)})
        on conflict (customer_id) do update set event_log_ms = excluded.event_log_ms, delivery_log_ms = excluded.delivery_log_ms,
          inbound_attachments_ms = excluded.inbound_attachments_ms, message_content_ms = excluded.message_content_ms, updated_at = excluded.updated_at`,
    );
  }

  async pruneEvents(window: PruneWindow): Promise<PruneBatch> {
    const rows = await this.session.rows<{ id: string; created_at: unknown }>(
      sql`select id, created_at from events where customer_id = ${window.customerId} and created_at < ${this.session.time(window.before)}
        and not exists (select 1 from webhook_deliveries d where d.event_id = events.id and d.status = 'pending')
        order by created_at limit ${window.limit}`,
    );
    if (rows.length === 0) return batchOf(rows, 0);
    const ids = list(rows.map((row) => row.id));
    await this.session.execute(sql`delete from webhook_deliveries where event_id in (${ids})`);
    const removed = await this.session.execute(sql`delete from events where id in (${ids})`);
    return batchOf(rows, removed);
  }

  async pruneDeliveries(window: PruneWindow): Promise<PruneBatch> {
    const rows = await this.#window('events', window, sql`1 = 1`);
    if (rows.length === 0) return batchOf(rows, 0);
    const removed = await this.session.execute(
      sql`delete from webhook_deliveries where event_id in (${list(rows.map((row) => row.id))}) and status <> 'pending'`,
    );
    return batchOf(rows, removed);
  }

  async redactMessages(window: PruneWindow, at: Date): Promise<PruneBatch> {
    const rows = await this.#window(
      'messages',
      window,
      sql`redacted_at is null and status not in ('scheduled', 'queued')`,
    );
    if (rows.length === 0) return batchOf(rows, 0);
    const ids = list(rows.map((row) => row.id));
    await this.session.execute(
      sql`delete from message_attachment_data where message_id in (${ids})`,
    );
    await this.session.execute(sql`delete from stored_attachments where message_id in (${ids})`);
    const removed = await this.session.execute(
      sql`update messages set text = '', media_urls = null, attachments = '[]', mentions = null, redacted_at = ${this.session.time(at)} where id in (${ids})`,
    );
    return batchOf(rows, removed);
  }

  async pruneAttachments(window: PruneWindow): Promise<PruneBatch> {
    const rows = await this.session.rows<{ id: string; created_at: unknown }>(
      sql`select id, created_at from stored_attachments where customer_id = ${window.customerId} and created_at < ${this.session.time(window.before)}
        order by created_at limit ${window.limit}`,
    );
    if (rows.length === 0) return batchOf(rows, 0);
    const removed = await this.session.execute(
      sql`delete from stored_attachments where id in (${list(rows.map((row) => row.id))})`,
    );
    return batchOf(rows, removed);
  }

  async reclaimSpace(pages: number): Promise<number> {
    if (this.session.dialect !== 'sqlite') return 0;
    // Without auto_vacuum=INCREMENTAL (a database created before it) the free pages are reused
    // but cannot be given back: nothing to do (docs/operations.md, "Reclaiming space").
    const [mode] = await this.session.rows<{ auto_vacuum: number }>(sql`pragma auto_vacuum`);
    if (mode?.auto_vacuum !== 2) return 0;
    // Zero would mean "the whole free list" to SQLite: zero here only asks how many are free.
    if (pages > 0) {
      await this.session.execute(sql.raw(`pragma incremental_vacuum(${Math.trunc(pages)})`));
    }
    const [row] = await this.session.rows<{ freelist_count: number }>(sql`pragma freelist_count`);
    return row?.freelist_count ?? 0;
  }

  /** The ids and creation times of `table`'s rows in the window matching `where`, oldest first. */
  #window(
    table: 'events' | 'messages',
    window: PruneWindow,
    where: SQL,
  ): Promise<Array<{ id: string; created_at: unknown }>> {
    return this.session.rows(
      sql`select id, created_at from ${sql.raw(table)} where customer_id = ${window.customerId}
        and created_at >= ${this.session.time(window.after)} and created_at < ${this.session.time(window.before)} and ${where}
        order by created_at, id limit ${window.limit}`,
    );
  }
}
