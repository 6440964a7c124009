import type { Channel } from '@switchboard/contract';
import { sql } from 'drizzle-orm';
import type {
  NumberPauseRecord,
  NumberRestrictionRecord,
  SendPolicyRepository,
  SendPolicyScope,
  SendUsageRecord,
  StoredSendPolicy,
} from './send-policy-repository';
import type { SqlSession } from './sql-session';

/** A row of `number_restrictions`. */
interface RestrictionRow {
  number_id: string;
  strikes: string;
  restricted_until: number | string | null;
  code: string | null;
  reason: string | null;
  updated_at: number | string;
}

/** A row of `number_pauses`. */
interface PauseRow {
  number_id: string;
  channel: Channel;
  paused_at: number | string | null;
  reason: string | null;
  resumed_at: number | string | null;
}

/** Epoch milliseconds of a nullable time column (PostgreSQL answers bigint as text). */
function msOf(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

/**
 * {@link SendPolicyRepository} on either store, in hand-written SQL: its tables hold times as
 * epoch milliseconds and flags as 0/1 on both, so one implementation serves both.
 */
export class SqlSendPolicyRepository implements SendPolicyRepository {
  /** Creates the repository over a session. */
  constructor(private readonly session: SqlSession) {}

  async findPolicy(scope: SendPolicyScope, scopeId: string): Promise<StoredSendPolicy | undefined> {
    const rows = await this.session.rows<{ policy: string }>(
      sql`select policy from send_policies where scope = ${scope} and scope_id = ${scopeId}`,
    );
    const row = rows[0];
    return row ? (JSON.parse(row.policy) as StoredSendPolicy) : undefined;
  }

  async putPolicy(
    scope: SendPolicyScope,
    scopeId: string,
    policy: StoredSendPolicy,
    at: number,
  ): Promise<void> {
    const json = JSON.stringify(policy);
    await this.session.execute(
      sql`insert into send_policies (scope, scope_id, policy, updated_at)
          values (${scope}, ${scopeId}, ${json}, ${at})
          on conflict (scope, scope_id) do update set policy = ${json}, updated_at = ${at}`,
    );
  }

  async usageOfDay(
    numberId: string,
    channel: Channel,
    day: string,
  ): Promise<{ sends: number; coldContacts: number }> {
    const rows = await this.session.rows<{
      sends: number | string;
      cold_contacts: number | string;
    }>(
      sql`select sends, cold_contacts from send_usage_days
          where number_id = ${numberId} and channel = ${channel} and day = ${day}`,
    );
    const row = rows[0];
    return { sends: Number(row?.sends ?? 0), coldContacts: Number(row?.cold_contacts ?? 0) };
  }

  async isCounted(messageId: string): Promise<boolean> {
    const rows = await this.session.rows(
      sql`select 1 as one from send_usage where message_id = ${messageId}`,
    );
    return rows.length > 0;
  }

  async hasSentTo(numberId: string, recipient: string): Promise<boolean> {
    const rows = await this.session.rows(
      sql`select 1 as one from send_usage
          where number_id = ${numberId} and recipient = ${recipient} limit 1`,
    );
    return rows.length > 0;
  }

  async hasWritten(customerId: string, address: string, recipient: string): Promise<boolean> {
    const rows = await this.session.rows(
      sql`select 1 as one from messages
          where customer_id = ${customerId} and to_address = ${address}
            and from_address = ${recipient} and direction = 'inbound' limit 1`,
    );
    return rows.length > 0;
  }

  async count(usage: SendUsageRecord): Promise<void> {
    const cold = usage.cold ? 1 : 0;
    const inserted = await this.session.execute(
      sql`insert into send_usage (message_id, number_id, channel, day, recipient, cold, at)
          values (${usage.messageId}, ${usage.numberId}, ${usage.channel}, ${usage.day},
                  ${usage.recipient}, ${cold}, ${usage.at})
          on conflict (message_id) do nothing`,
    );
    if (inserted === 0) return;
    await this.session.execute(
      sql`insert into send_usage_days (number_id, channel, day, sends, cold_contacts)
          values (${usage.numberId}, ${usage.channel}, ${usage.day}, 1, ${cold})
          on conflict (number_id, channel, day) do update
          set sends = send_usage_days.sends + 1,
              cold_contacts = send_usage_days.cold_contacts + ${cold}`,
    );
  }

  async findRestriction(numberId: string): Promise<NumberRestrictionRecord | undefined> {
    const rows = await this.session.rows<RestrictionRow>(
      sql`select * from number_restrictions where number_id = ${numberId}`,
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      numberId: row.number_id,
      strikes: JSON.parse(row.strikes) as number[],
      restrictedUntil: row.restricted_until === null ? null : Number(row.restricted_until),
      code: row.code,
      reason: row.reason,
      updatedAt: Number(row.updated_at),
    };
  }

  async putRestriction(record: NumberRestrictionRecord): Promise<void> {
    const strikes = JSON.stringify(record.strikes);
    const { numberId, restrictedUntil, code, reason, updatedAt } = record;
    await this.session.execute(
      sql`insert into number_restrictions
            (number_id, strikes, restricted_until, code, reason, updated_at)
          values (${numberId}, ${strikes}, ${restrictedUntil}, ${code}, ${reason}, ${updatedAt})
          on conflict (number_id) do update set strikes = ${strikes},
            restricted_until = ${restrictedUntil}, code = ${code}, reason = ${reason},
            updated_at = ${updatedAt}`,
    );
  }

  async findPauses(numberId: string): Promise<NumberPauseRecord[]> {
    const rows = await this.session.rows<PauseRow>(
      sql`select number_id, channel, paused_at, reason, resumed_at from number_pauses
          where number_id = ${numberId} order by channel`,
    );
    return rows.map((row) => ({
      numberId: row.number_id,
      channel: row.channel,
      pausedAt: msOf(row.paused_at),
      reason: row.reason,
      resumedAt: msOf(row.resumed_at),
    }));
  }

  async pause(numberId: string, channel: Channel, reason: string, at: number): Promise<boolean> {
    const changed = await this.session.execute(
      sql`insert into number_pauses (number_id, channel, paused_at, reason, resumed_at, updated_at)
          values (${numberId}, ${channel}, ${at}, ${reason}, null, ${at})
          on conflict (number_id, channel) do update
          set paused_at = ${at}, reason = ${reason}, updated_at = ${at}
          where number_pauses.paused_at is null`,
    );
    return changed > 0;
  }

  async resume(numberId: string, channel: Channel | undefined, at: number): Promise<Channel[]> {
    const paused = (await this.findPauses(numberId)).filter(
      (pause) => pause.pausedAt !== null && (channel === undefined || pause.channel === channel),
    );
    for (const pause of paused) {
      await this.session.execute(
        sql`update number_pauses
            set paused_at = null, reason = null, resumed_at = ${at}, updated_at = ${at}
            where number_id = ${numberId} and channel = ${pause.channel}`,
      );
    }
    return paused.map((pause) => pause.channel);
  }
}
