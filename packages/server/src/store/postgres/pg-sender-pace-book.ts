import type pg from 'pg';
import type { PaceBookName, PaceSlot, SenderPaceBook } from '../sender-pace-book';

/**
 * One statement takes a slot: the row of the sender moves to one interval after the later of its
 * previous slot and the database's clock, and the answer is the wait until the slot taken and
 * the slot's instant. The
 * row's lock orders racing processes; the database's clock is the one they share.
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

/** {@link SenderPaceBook} in the `sender_pace` table of a PostgreSQL database. */
export class PgSenderPaceBook implements SenderPaceBook {
  /** Takes slots through `pool` (one statement each, outside any transaction). */
  constructor(private readonly pool: pg.Pool) {}

  async takeSlot(
    book: PaceBookName,
    instanceId: string,
    sender: string,
    intervalMs: number,
  ): Promise<PaceSlot> {
    // Slots are stored to the millisecond: rounding the interval up never brings two closer.
    const result = await this.pool.query<{ wait_ms: number; at_ms: number }>(TAKE_SLOT, [
      instanceId,
      sender,
      Math.ceil(intervalMs),
      book,
    ]);
    const row = result.rows[0];
    if (!row) throw new Error('the pacing statement answered no row');
    return { waitMs: row.wait_ms, atMs: row.at_ms };
  }
}
