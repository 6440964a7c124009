import { eq, sql } from 'drizzle-orm';
import { boolean, integer, json, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytea, text, timestamp } from '../../src/store/postgres/pg-columns';
import { createPgOrm, openPgPool } from '../../src/store/postgres/pg-connection';
import type { PgOrm } from '../../src/store/postgres/pg-executor';
import {
  preparedFirstBy,
  preparedInsert,
  preparedUpdate,
} from '../../src/store/postgres/pg-prepared-query';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database';

/** A table with a column of every kind the PostgreSQL schema uses. */
const things = pgTable('things', {
  id: text('id').primaryKey(),
  owner: text('owner').notNull(),
  label: text('label'),
  kind: text('kind').notNull().default('plain'),
  data: json('data').$type<{ tags: string[] } | string[] | null>(),
  flag: boolean('flag'),
  count: integer('count').notNull().default(0),
  at: timestamp('at'),
  bytes: bytea('bytes'),
});

const pairs = pgTable(
  'pairs',
  { left: text('left').notNull(), right: text('right').notNull(), value: text('value') },
  (table) => [primaryKey({ columns: [table.left, table.right] })],
);

const insertThing = preparedInsert(things);
const insertPair = preparedInsert(pairs, { onConflictDoNothing: true });
const thingById = preparedFirstBy(things, { id: things.id });
const pairOf = preparedFirstBy(pairs, { left: pairs.left, right: pairs.right });
const updateThing = preparedUpdate(things, (variant: 'any' | 'owned') =>
  variant === 'owned'
    ? sql`${things.id} = ${sql.placeholder('$id')} and ${things.owner} = ${sql.placeholder('$owner')}`
    : eq(things.id, sql.placeholder('$id')),
);

const T0 = new Date('2026-03-01T10:00:00.123Z');
const T1 = new Date('2026-03-02T11:30:00.456Z');

describe('PostgreSQL statements prepared once per connection', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof openPgPool>;
  let db: PgOrm;

  beforeAll(async () => {
    database = await createTestDatabase({ unmigrated: true });
    pool = openPgPool(database.url, { max: 4 });
    await pool.query(`
      create table things (id text collate "C" primary key, owner text collate "C" not null,
        label text collate "C", kind text collate "C" not null default 'plain', data json,
        flag boolean, count integer not null default 0, at timestamptz(3), bytes bytea);
      create table pairs ("left" text collate "C" not null, "right" text collate "C" not null,
        value text collate "C", primary key ("left", "right"));
    `);
    db = createPgOrm(pool);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('store and read back exactly what drizzle stores, for every column type', async () => {
    const row = {
      owner: 'o1',
      label: 'a "quoted" label',
      data: { tags: ['x', 'y'] },
      flag: true,
      count: 7,
      at: T0,
      bytes: Buffer.from([1, 2, 3]),
    };
    await db.insert(things).values({ id: 'by-drizzle', ...row });
    expect(await insertThing(db, { id: 'prepared', ...row })).toBe(1);
    const byDrizzle = await db.select().from(things).where(eq(things.id, 'by-drizzle'));
    const prepared = await thingById(db, { id: 'prepared' });
    expect(prepared).toEqual({ ...byDrizzle[0], id: 'prepared' });
    // A JSON array stays a JSON array (pg alone would send it as a PostgreSQL array).
    await insertThing(db, { id: 'array', owner: 'o1', data: ['a', 'b'] });
    expect((await thingById(db, { id: 'array' }))?.data).toEqual(['a', 'b']);
  });

  it('give each row its own shape: defaults where a field is missing, NULL where it is null', async () => {
    await insertThing(db, { id: 's1', owner: 'o1', label: 'one', count: 3, at: T0 });
    await insertThing(db, { id: 's2', owner: 'o1', label: null, at: null });
    await insertThing(db, { id: 's3', owner: 'o1', label: 'three', count: 5, at: T1 });
    expect(await thingById(db, { id: 's1' })).toMatchObject({
      label: 'one',
      kind: 'plain',
      count: 3,
      at: T0,
      data: null,
    });
    expect(await thingById(db, { id: 's2' })).toMatchObject({ label: null, count: 0, at: null });
    expect(await thingById(db, { id: 's3' })).toMatchObject({ label: 'three', count: 5, at: T1 });
    expect(await thingById(db, { id: 'missing' })).toBeUndefined();
  });

  it('update only the fields a patch sets, under either variant of the condition', async () => {
    await insertThing(db, { id: 'u1', owner: 'o1', label: 'before', count: 1, at: T0 });
    expect(await updateThing(db, { label: 'after', at: T1 }, { $id: 'u1' }, 'any')).toBe(1);
    expect(await thingById(db, { id: 'u1' })).toMatchObject({ label: 'after', count: 1, at: T1 });
    // The same fields, one of them null now: another statement, not the value of the last one.
    expect(await updateThing(db, { label: null, at: T0 }, { $id: 'u1' }, 'any')).toBe(1);
    expect(await thingById(db, { id: 'u1' })).toMatchObject({ label: null, at: T0 });
    expect(await updateThing(db, { count: 9 }, { $id: 'u1', $owner: 'o2' }, 'owned')).toBe(0);
    expect(await updateThing(db, { count: 9 }, { $id: 'u1', $owner: 'o1' }, 'owned')).toBe(1);
    expect(await thingById(db, { id: 'u1' })).toMatchObject({ count: 9, label: null });
    await expect(updateThing(db, {}, { $id: 'u1' }, 'any')).rejects.toThrow('No values to set');
  });

  it('skip a duplicate when asked to, and report that nothing was inserted', async () => {
    expect(await insertPair(db, { left: 'a', right: 'b', value: 'first' })).toBe(1);
    expect(await insertPair(db, { left: 'a', right: 'b', value: 'second' })).toBe(0);
    expect(await pairOf(db, { left: 'a', right: 'b' })).toEqual({
      left: 'a',
      right: 'b',
      value: 'first',
    });
  });

  it('run on the client of a transaction, and roll back with it', async () => {
    await db
      .transaction(async (tx) => {
        await insertThing(tx, { id: 't1', owner: 'o1', label: 'inside' });
        expect((await thingById(tx, { id: 't1' }))?.label).toBe('inside');
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await thingById(db, { id: 't1' })).toBeUndefined();
    await db.transaction(async (tx) => {
      await insertThing(tx, { id: 't2', owner: 'o1', label: 'kept' });
    });
    expect((await thingById(db, { id: 't2' }))?.label).toBe('kept');
  });

  it('keep concurrent calls on several connections apart', async () => {
    const ids = Array.from({ length: 40 }, (_, index) => `c${index}`);
    await Promise.all(
      ids.map((id, index) =>
        db.transaction(async (tx) => {
          await insertThing(tx, { id, owner: `o${index % 3}`, count: index });
          await updateThing(
            tx,
            index % 2 === 0 ? { label: `even ${index}` } : { label: null, flag: true },
            { $id: id },
            'any',
          );
        }),
      ),
    );
    for (const [index, id] of ids.entries()) {
      expect(await thingById(db, { id })).toMatchObject(
        index % 2 === 0
          ? { owner: `o${index % 3}`, count: index, label: `even ${index}`, flag: null }
          : { owner: `o${index % 3}`, count: index, label: null, flag: true },
      );
    }
  });
});
