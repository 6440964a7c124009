import { type SQL, sql } from 'drizzle-orm';
import type {
  ContactErasureRecord,
  ContactErasureRepository,
  ErasureCounts,
  ErasureTarget,
} from './contact-erasure-repository';
import type { SqlSession } from './sql-session';

/** Ids per statement: well under every driver's parameter limit. */
const CHUNK = 400;

/** `a, b, c` as bound parameters. */
function list(values: readonly string[]): SQL {
  return sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
}

/** Splits `values` into chunks of {@link CHUNK}. */
function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

/** A participant list as JSON text (the column is `json` on PostgreSQL). */
function asText(session: SqlSession, column: string): SQL {
  return sql.raw(session.dialect === 'postgres' ? `${column}::text` : column);
}

/** An empty tally. */
function zeroCounts(): ErasureCounts {
  return {
    messages: 0,
    attachments: 0,
    events: 0,
    deliveries: 0,
    chats: 0,
    groupsLeft: 0,
    reactions: 0,
    receipts: 0,
    signupCodes: 0,
    faceTimeCalls: 0,
    capabilityCache: 0,
    unroutedInbound: 0,
  };
}

/** A stored row of `contact_erasures`. */
interface ErasureRow {
  id: string;
  customer_id: string | null;
  address_hash: string;
  requested_by: string;
  counts: string | ErasureCounts;
  created_at: number | string | Date;
}

/**
 * {@link ContactErasureRepository} written once for both stores over a {@link SqlSession}.
 * `open` decrypts the sealed payloads of kept unrouted items, which SQL cannot search.
 */
export class SqlContactErasureRepository implements ContactErasureRepository {
  /** The repository over `session`; `open` decrypts a sealed column value. */
  constructor(
    private readonly session: SqlSession,
    private readonly open: (sealed: string) => string,
  ) {}

  async erase(target: ErasureTarget): Promise<ErasureCounts> {
    const counts = zeroCounts();
    const scope = this.#scope(target.customerId);
    const chats = await this.#chats(target, scope, counts);
    const messageIds = await this.#messageIds(target, scope, chats);
    await this.#eraseMessages(messageIds, counts);
    await this.#eraseEvents(target, scope, messageIds, counts);
    await this.#eraseLooseRows(target, scope, counts);
    if (chats.length > 0) {
      counts.chats = await this.session.execute(
        sql`delete from conversations where id in (${list(chats)})`,
      );
    }
    if (target.customerId === null) counts.unroutedInbound = await this.#eraseUnrouted(target);
    return counts;
  }

  /** `customer_id = ?` for a customer's erasure, always true for an operator's. */
  #scope(customerId: string | null): SQL {
    return customerId === null ? sql`1 = 1` : sql`customer_id = ${customerId}`;
  }

  /**
   * The chats naming the address: the ids of those where it is the only other party (to delete,
   * with their messages); group chats lose it from their participant list.
   */
  async #chats(target: ErasureTarget, scope: SQL, counts: ErasureCounts): Promise<string[]> {
    const rows = await this.session.rows<{ id: string; is_group: unknown; participants: unknown }>(
      sql`select id, is_group, participants from conversations where ${scope} and (${this.#anyNeedle(
        asText(this.session, 'participants'),
        target,
      )})`,
    );
    const erased: string[] = [];
    for (const row of rows) {
      const participants = (
        typeof row.participants === 'string' ? JSON.parse(row.participants) : row.participants
      ) as Array<{ handle: string }>;
      const others = participants.filter((p) => !target.mentions(JSON.stringify(p)));
      if (others.length === participants.length) continue;
      if (!row.is_group || others.length === 0) {
        erased.push(row.id);
        continue;
      }
      await this.session.execute(
        sql`update conversations set participants = ${JSON.stringify(others)} where id = ${row.id}`,
      );
      counts.groupsLeft += 1;
    }
    return erased;
  }

  /** `lower(column) like '%needle%' or …` over the target's needles. */
  #anyNeedle(column: SQL, target: ErasureTarget): SQL {
    return sql.join(
      target.needles.map((needle) => sql`lower(${column}) like ${`%${needle}%`}`),
      sql` or `,
    );
  }

  /** Messages to or from the address, and those of the chats it alone shared. */
  async #messageIds(
    target: ErasureTarget,
    scope: SQL,
    chats: readonly string[],
  ): Promise<string[]> {
    const forms = list(target.forms);
    const rows = await this.session.rows<{ id: string }>(
      sql`select id from messages where ${scope} and (to_address in (${forms}) or from_address in (${forms}) or provider_chat_id in (${forms}))`,
    );
    const ids = new Set(rows.map((row) => row.id));
    for (const chunk of chunks(chats)) {
      const inChats = await this.session.rows<{ id: string }>(
        sql`select id from messages where conversation_id in (${list(chunk)})`,
      );
      for (const row of inChats) ids.add(row.id);
    }
    return [...ids];
  }

  /** Deletes the messages and everything hanging from them. */
  async #eraseMessages(messageIds: readonly string[], counts: ErasureCounts): Promise<void> {
    const run = (query: SQL) => this.session.execute(query);
    for (const chunk of chunks(messageIds)) {
      const ids = list(chunk);
      await run(
        sql`delete from message_parts where attempt_id in (select attempt_id from message_attempts where message_id in (${ids}))`,
      );
      await run(sql`delete from message_attempts where message_id in (${ids})`);
      await run(sql`delete from message_routing_steps where message_id in (${ids})`);
      // The send policies' record of whom a number wrote to (its cold-contact memory).
      await run(sql`delete from send_usage where message_id in (${ids})`);
      await run(sql`delete from message_attachment_data where message_id in (${ids})`);
      counts.reactions += await run(
        sql`delete from message_reactions where message_id in (${ids})`,
      );
      counts.receipts += await run(sql`delete from message_receipts where message_id in (${ids})`);
      counts.attachments += await run(
        sql`delete from stored_attachments where message_id in (${ids})`,
      );
      counts.signupCodes += await run(sql`delete from signup_codes where message_id in (${ids})`);
    }
  }

  /**
   * Deletes the events of the erased messages and every other event whose payload names the
   * address, with their delivery-log entries, then the messages themselves (events first: a
   * message's events may be read by id until they are gone). Events have no index on their
   * message: the customer's log is read twice (message ids; payloads preselected by the needles).
   */
  async #eraseEvents(
    target: ErasureTarget,
    scope: SQL,
    messageIds: readonly string[],
    counts: ErasureCounts,
  ): Promise<void> {
    const wanted = new Set(messageIds);
    const ofMessages = await this.session.rows<{ id: string; message_id: string }>(
      sql`select id, message_id from events where ${scope} and message_id is not null`,
    );
    const naming = await this.session.rows<{ id: string; payload: string }>(
      sql`select id, payload from events where ${scope} and (${this.#anyNeedle(sql.raw('payload'), target)})`,
    );
    const eventIds = new Set<string>([
      ...ofMessages.filter((row) => wanted.has(row.message_id)).map((row) => row.id),
      ...naming.filter((row) => target.mentions(row.payload)).map((row) => row.id),
    ]);
    for (const chunk of chunks([...eventIds])) {
      const ids = list(chunk);
      counts.deliveries += await this.session.execute(
        sql`delete from webhook_deliveries where event_id in (${ids})`,
      );
      counts.events += await this.session.execute(sql`delete from events where id in (${ids})`);
    }
    for (const chunk of chunks(messageIds)) {
      counts.messages += await this.session.execute(
        sql`delete from messages where id in (${list(chunk)})`,
      );
    }
  }

  /** Rows naming the address outside its messages: its reactions, receipts, codes, calls, cache. */
  async #eraseLooseRows(target: ErasureTarget, scope: SQL, counts: ErasureCounts): Promise<void> {
    const forms = list(target.forms);
    const run = (query: SQL) => this.session.execute(query);
    counts.reactions += await run(
      sql`delete from message_reactions where ${scope} and sender in (${forms})`,
    );
    counts.receipts += await run(
      target.customerId === null
        ? sql`delete from message_receipts where recipient in (${forms})`
        : sql`delete from message_receipts where recipient in (${forms}) and message_id in (select id from messages where customer_id = ${target.customerId})`,
    );
    counts.signupCodes += await run(
      sql`delete from signup_codes where ${scope} and from_address in (${forms})`,
    );
    counts.faceTimeCalls += await run(
      sql`delete from facetime_calls where ${scope} and other_party in (${forms})`,
    );
    counts.capabilityCache += await run(
      sql`delete from capability_cache where address in (${forms})`,
    );
  }

  /** Kept unrouted items from, to or naming the address (their payloads are sealed). */
  async #eraseUnrouted(target: ErasureTarget): Promise<number> {
    const rows = await this.session.rows<{
      id: string;
      address: string;
      from_address: string | null;
      payload: string;
    }>(sql`select id, address, from_address, payload from unrouted_inbound`);
    const ids = rows
      .filter(
        (row) =>
          target.forms.includes(row.address) ||
          (row.from_address !== null && target.forms.includes(row.from_address)) ||
          target.mentions(this.open(row.payload)),
      )
      .map((row) => row.id);
    let erased = 0;
    for (const chunk of chunks(ids)) {
      erased += await this.session.execute(
        sql`delete from unrouted_inbound where id in (${list(chunk)})`,
      );
    }
    return erased;
  }

  async insert(record: ContactErasureRecord): Promise<void> {
    await this.session.execute(
      sql`insert into contact_erasures (id, customer_id, address_hash, requested_by, counts, created_at) values (${record.id}, ${record.customerId}, ${record.addressHash}, ${record.requestedBy}, ${JSON.stringify(record.counts)}, ${this.session.time(record.createdAt)})`,
    );
  }

  async list(customerId: string | null, limit: number): Promise<ContactErasureRecord[]> {
    const where = customerId === null ? sql`customer_id is null` : sql`customer_id = ${customerId}`;
    const rows = await this.session.rows<ErasureRow>(
      sql`select id, customer_id, address_hash, requested_by, counts, created_at from contact_erasures where ${where} order by created_at desc, id desc limit ${limit}`,
    );
    return rows.map((row) => ({
      id: row.id,
      customerId: row.customer_id,
      addressHash: row.address_hash,
      requestedBy: row.requested_by,
      counts:
        typeof row.counts === 'string' ? (JSON.parse(row.counts) as ErasureCounts) : row.counts,
      createdAt: new Date(row.created_at),
    }));
  }
}
