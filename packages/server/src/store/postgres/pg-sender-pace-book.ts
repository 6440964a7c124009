import type pg from 'pg';
import {
  HELD_SLOT_MS,
  type PaceBookName,
  type PaceSlot,
  type SenderPaceBook,
} from '../sender-pace-book';

/**
 * One statement takes a slot: the row of the sender moves to one interval after the later of its
 * previous slot and the database's clock, and the answer is the wait until the slot taken and
 * the slot's instant. The row's lock orders racing processes; the database's clock is the one
 * they share.
 */
const TAKE_SLOT = `
insert into sender_pace (instance_id, sender, book, next_at)
values ($1, $2, $4, clock_timestamp() + $3::float8 * interval '1 millisecond')
on conflict (instance_id, sender, book) do update
  set next_at = greatest(sender_pace.next_at, clock_timestamp()) + $3::float8 * interval '1 millisecond'
returning greatest(
  0,
  extract(epoch from (next_at - clock_timestamp())) * 1000 - $3::float8
)::float8 as wait_ms,
(extract(epoch from next_at) * 1000 - $3::float8)::float8 as at_ms`;

/**
 * The same for a message's start slot, in one statement too: the slot the message holds in
 * `sender_pace_slots` when it has one (nothing moves), else a slot taken as above and kept under
 * the message's id; the sender's slots past {@link HELD_SLOT_MS} are dropped as it goes. Two
 * processes that take a first slot for one message at the same instant both move the book (the
 * second keeps nothing); the one that reads an existing slot never does.
 */
const TAKE_MESSAGE_SLOT = `
with held as (
  select at from sender_pace_slots
  where instance_id = $1 and sender = $2 and message_id = $4
), taken as (
  insert into sender_pace (instance_id, sender, book, next_at)
  select $1, $2, 'start', clock_timestamp() + $3::float8 * interval '1 millisecond'
  where not exists (select 1 from held)
  on conflict (instance_id, sender, book) do update
    set next_at = greatest(sender_pace.next_at, clock_timestamp()) + $3::float8 * interval '1 millisecond'
  returning next_at - $3::float8 * interval '1 millisecond' as at
), kept as (
  insert into sender_pace_slots (instance_id, sender, message_id, at)
  select $1, $2, $4, at from taken
  on conflict do nothing
), dropped as (
  delete from sender_pace_slots
  where instance_id = $1 and sender = $2
    and at < clock_timestamp() - $5::float8 * interval '1 millisecond'
    and exists (select 1 from taken)
)
select
  greatest(0, extract(epoch from (at - clock_timestamp())) * 1000)::float8 as wait_ms,
  (extract(epoch from at) * 1000)::float8 as at_ms
from (select at from held union all select at from taken) as slot`;

/** {@link SenderPaceBook} in the `sender_pace` table of a PostgreSQL database. */
export class PgSenderPaceBook implements SenderPaceBook {
  /** Takes slots through `pool` (one statement each, outside any transaction). */
  constructor(private readonly pool: pg.Pool) {}

  async takeSlot(
    book: PaceBookName,
    instanceId: string,
    sender: string,
    intervalMs: number,
    messageId?: string,
  ): Promise<PaceSlot> {
    // Slots are stored to the millisecond: rounding the interval up never brings two closer.
    const gap = Math.ceil(intervalMs);
    const result =
      book === 'start' && messageId !== undefined
        ? await this.pool.query<SlotRow>(TAKE_MESSAGE_SLOT, [
            instanceId,
            sender,
            gap,
            messageId,
            HELD_SLOT_MS,
          ])
        : await this.pool.query<SlotRow>(TAKE_SLOT, [instanceId, sender, gap, book]);
    const row = result.rows[0];
    if (!row) throw new Error('the pacing statement answered no row');
    return { waitMs: row.wait_ms, atMs: row.at_ms };
  }
}

/** What both statements answer. */
interface SlotRow {
  wait_ms: number;
  at_ms: number;
}
