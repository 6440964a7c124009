import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisConnection } from '../../src/redis/redis-connection';
import { RedisSenderPaceBook } from '../../src/redis/redis-sender-pace-book';
import { openPgPool } from '../../src/store/postgres/pg-connection';
import { PgSenderPaceBook } from '../../src/store/postgres/pg-sender-pace-book';
import { HELD_SLOT_MS, type SenderPaceBook } from '../../src/store/sender-pace-book';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database';

// The two shared books on a real PostgreSQL and a real Redis on loopback (CI starts both): a
// message's start slot is taken once, whichever process asks for it and how often.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SENDER = '+14155550100';
const GAP_MS = 1_000;

let database: TestDatabase;
let pool: pg.Pool;
let redis: RedisConnection;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = openPgPool(database.url, { max: 2 });
  redis = new RedisConnection(REDIS_URL, { warn: () => undefined, info: () => undefined });
  await redis.ready(5_000);
});

afterAll(async () => {
  await pool.end();
  await database.drop();
  await redis.close();
});

const books: Array<[string, () => SenderPaceBook]> = [
  ['PostgreSQL', () => new PgSenderPaceBook(pool)],
  ['Redis', () => new RedisSenderPaceBook(redis, `test-${randomUUID()}:`)],
];

describe.each(books)('the %s pace book', (_name, open) => {
  it('answers a message the start slot it took before, and moves the book once for it', async () => {
    const book = open();
    const instance = `ins_${randomUUID()}`;
    const first = await book.takeSlot('start', instance, SENDER, GAP_MS, 'msg_a');
    const second = await book.takeSlot('start', instance, SENDER, GAP_MS, 'msg_b');
    expect(second.atMs - first.atMs).toBeCloseTo(GAP_MS, -1);
    // Another process asks for msg_a's slot again (its sweep): the same instant, nothing moves.
    const again = await book.takeSlot('start', instance, SENDER, GAP_MS, 'msg_a');
    expect(again.atMs).toBeCloseTo(first.atMs, 0);
    expect(again.waitMs).toBeLessThanOrEqual(first.waitMs);
    const third = await book.takeSlot('start', instance, SENDER, GAP_MS, 'msg_c');
    expect(third.atMs - second.atMs).toBeCloseTo(GAP_MS, -1);
    // A slot without a message, and the departure book, are never kept: each call takes anew.
    const plain = await book.takeSlot('start', instance, SENDER, GAP_MS);
    expect(plain.atMs - third.atMs).toBeCloseTo(GAP_MS, -1);
    const departed = await book.takeSlot('departure', instance, SENDER, GAP_MS, 'msg_a');
    const departedAgain = await book.takeSlot('departure', instance, SENDER, GAP_MS, 'msg_a');
    expect(departedAgain.atMs - departed.atMs).toBeCloseTo(GAP_MS, -1);
  });

  it('keeps a message’s slot apart per sender and instance', async () => {
    const book = open();
    const instance = `ins_${randomUUID()}`;
    const mine = await book.takeSlot('start', instance, SENDER, GAP_MS, 'msg_a');
    await book.takeSlot('start', instance, SENDER, GAP_MS, 'msg_b');
    const elsewhere = await book.takeSlot('start', `ins_${randomUUID()}`, SENDER, GAP_MS, 'msg_a');
    // Each the first slot of its own book: at once (PostgreSQL's slots are stored to the
    // millisecond, so "at once" is within one).
    expect(elsewhere.waitMs).toBeLessThan(1);
    expect(mine.waitMs).toBeLessThan(1);
  });
});

describe('how long the books keep a message’s slot', () => {
  it('PostgreSQL drops a sender’s slots once they are older than the hold', async () => {
    const book = new PgSenderPaceBook(pool);
    const instance = `ins_${randomUUID()}`;
    await pool.query(
      `insert into sender_pace_slots (instance_id, sender, message_id, at)
       values ($1, $2, 'msg_old', clock_timestamp() - $3::float8 * interval '1 millisecond')`,
      [instance, SENDER, HELD_SLOT_MS + 60_000],
    );
    await book.takeSlot('start', instance, SENDER, GAP_MS, 'msg_new');
    const kept = await pool.query<{ message_id: string }>(
      'select message_id from sender_pace_slots where instance_id = $1 order by message_id',
      [instance],
    );
    expect(kept.rows.map((row) => row.message_id)).toEqual(['msg_new']);
  });

  it('Redis keeps a message’s slot until the hold has passed after its instant', async () => {
    const prefix = `test-${randomUUID()}:`;
    const book = new RedisSenderPaceBook(redis, prefix);
    const instance = `ins_${randomUUID()}`;
    await book.takeSlot('start', instance, SENDER, 60_000, 'msg_a');
    const later = await book.takeSlot('start', instance, SENDER, 60_000, 'msg_b');
    expect(later.waitMs).toBeGreaterThan(59_000);
    const ttl = await redis.commands.pttl(`${prefix}pace-slot:${instance}:${SENDER}:msg_b`);
    expect(ttl).toBeGreaterThan(HELD_SLOT_MS + 59_000);
    expect(ttl).toBeLessThanOrEqual(HELD_SLOT_MS + 60_000);
  });
});
