import Database from 'better-sqlite3';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { blob, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import type { SqliteOrm } from '../../src/store/sqlite/connection';
import { insertRow } from '../../src/store/sqlite/prepared-insert';
import { equalsConstant } from '../../src/store/sqlite/prepared-query';
import { updateRows } from '../../src/store/sqlite/prepared-update';
import { fixed } from '../../src/store/sqlite/table-statements';

/** A table with a column of every kind the schema uses. */
const things = sqliteTable('things', {
  id: text('id').primaryKey(),
  label: text('label'),
  kind: text('kind').notNull().default('plain'),
  data: text('data', { mode: 'json' }).$type<{ tags: string[] } | null>(),
  flag: integer('flag', { mode: 'boolean' }),
  count: integer('count').notNull().default(0),
  at: integer('at', { mode: 'timestamp_ms' }),
  bytes: blob('bytes', { mode: 'buffer' }),
});

const pairs = sqliteTable(
  'pairs',
  {
    left: text('left').notNull(),
    right: text('right').notNull(),
    value: text('value', { mode: 'json' }).$type<number[]>().notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.left, table.right] })],
);

function openDb(): { db: SqliteOrm; raw: Database.Database } {
  const raw = new Database(':memory:');
  raw.exec(`
    create table things (id text primary key, label text, kind text not null default 'plain',
      data text, flag integer, count integer not null default 0, at integer, bytes blob);
    create table pairs (left text not null, right text not null, value text not null,
      at integer not null, primary key (left, right));
  `);
  return { db: drizzle(raw) as unknown as SqliteOrm, raw };
}

const T0 = new Date('2026-03-01T10:00:00.123Z');

describe('prepared writes', () => {
  it('store exactly what drizzle stores, for every column type', () => {
    const { db, raw } = openDb();
    const row = {
      label: 'a "quoted" label',
      data: { tags: ['x', 'y'] },
      flag: true,
      count: 7,
      at: T0,
      bytes: Buffer.from([1, 2, 3]),
    };
    db.insert(things)
      .values({ id: 'by-drizzle', ...row })
      .run();
    expect(insertRow(db, things, { id: 'prepared', ...row })).toBe(1);
    const stored = raw.prepare('select * from things order by id').all() as Array<
      Record<string, unknown>
    >;
    expect(stored[1]).toEqual({ ...stored[0], id: 'prepared' });
    // Read back through drizzle: the same decoded values.
    expect(db.select().from(things).where(eq(things.id, 'prepared')).get()).toEqual({
      id: 'prepared',
      kind: 'plain',
      ...row,
    });
  });

  it('leave undefined values to the column default and store nulls as null', () => {
    const { db } = openDb();
    insertRow(db, things, { id: 't', label: null, data: null, flag: null, at: null });
    expect(db.select().from(things).get()).toEqual({
      id: 't',
      label: null,
      kind: 'plain',
      data: null,
      flag: null,
      count: 0,
      at: null,
      bytes: null,
    });
  });

  it('insert nothing on a conflict when asked, and fail otherwise', () => {
    const { db } = openDb();
    expect(insertRow(db, things, { id: 't', label: 'first' }, 'nothing')).toBe(1);
    expect(insertRow(db, things, { id: 't', label: 'second' }, 'nothing')).toBe(0);
    expect(() => insertRow(db, things, { id: 't', label: 'third' })).toThrow(/UNIQUE/);
    expect(db.select({ label: things.label }).from(things).all()).toEqual([{ label: 'first' }]);
  });

  it('update the given columns of a conflicting row', () => {
    const { db } = openDb();
    insertRow(db, pairs, { left: 'a', right: 'b', value: [1], at: T0 });
    const later = new Date(T0.getTime() + 1000);
    const upsert = { target: ['left', 'right'], set: ['value', 'at'] } as const;
    insertRow(db, pairs, { left: 'a', right: 'b', value: [2, 3], at: later }, upsert);
    insertRow(db, pairs, { left: 'a', right: 'c', value: [4], at: later }, upsert);
    expect(db.select().from(pairs).all()).toEqual([
      { left: 'a', right: 'b', value: [2, 3], at: later },
      { left: 'a', right: 'c', value: [4], at: later },
    ]);
  });

  it('update only the defined fields of rows meeting =, in and is-null conditions', () => {
    const { db } = openDb();
    for (const [id, kind] of [
      ['a', 'one'],
      ['b', 'two'],
      ['c', 'three'],
    ] as const) {
      insertRow(db, things, { id, kind, label: id === 'c' ? 'set' : null });
    }
    const patch = { flag: false, data: { tags: [] }, at: T0, label: undefined };
    expect(updateRows(db, things, patch, { kind: ['one', 'two', 'three'], label: null })).toBe(2);
    expect(updateRows(db, things, { count: 5 }, { id: 'c', kind: ['one'] })).toBe(0);
    expect(updateRows(db, things, { count: 5 }, { id: 'c', kind: [] })).toBe(0);
    expect(updateRows(db, things, { count: 5 }, { id: 'c' })).toBe(1);
    expect(db.select().from(things).orderBy(things.id).all()).toEqual([
      {
        id: 'a',
        label: null,
        kind: 'one',
        data: { tags: [] },
        flag: false,
        count: 0,
        at: T0,
        bytes: null,
      },
      {
        id: 'b',
        label: null,
        kind: 'two',
        data: { tags: [] },
        flag: false,
        count: 0,
        at: T0,
        bytes: null,
      },
      {
        id: 'c',
        label: 'set',
        kind: 'three',
        data: null,
        flag: null,
        count: 5,
        at: null,
        bytes: null,
      },
    ]);
  });

  it('refuse what they cannot write like drizzle', () => {
    const { db } = openDb();
    expect(() => updateRows(db, things, {}, { id: 'a' })).toThrow(/No values to set/);
    expect(() => updateRows(db, things, { count: 1 }, { data: null })).toThrow(/JSON column/);
    const generated = sqliteTable('generated', {
      id: text('id')
        .primaryKey()
        .$defaultFn(() => 'generated'),
    });
    expect(() => insertRow(db, generated, { id: 'x' })).toThrow(/write it with drizzle/);
  });

  it('write fixed condition values into the SQL as literals, quoted and encoded', () => {
    const { db, raw } = openDb();
    raw.exec(`
      create index things_flagged on things (kind) where flag = 1;
      insert into things (id, kind, flag) values ('a', 'it''s', 1), ('b', 'it''s', 0), ('c', 'x', 1);
    `);
    const prepared: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof raw.prepare;
    expect(updateRows(db, things, { count: 5 }, { kind: fixed("it's"), flag: fixed(true) })).toBe(
      1,
    );
    expect(prepared.at(-1)).toContain(`"kind" = 'it''s' and "flag" = 1`);
    expect(raw.prepare('select id from things where count = 5').all()).toEqual([{ id: 'a' }]);
    const flagged = db
      .select({ id: things.id })
      .from(things)
      .where(equalsConstant(things.flag, true))
      .all();
    expect(flagged.map((row) => row.id).sort()).toEqual(['a', 'c']);
    expect(db.select().from(things).where(equalsConstant(things.flag, true)).toSQL()).toMatchObject(
      { params: [] },
    );
  });

  it('reuse one statement per shape', () => {
    const { db, raw } = openDb();
    const prepared: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof raw.prepare;
    for (const id of ['a', 'b', 'c']) insertRow(db, things, { id, count: 1 });
    for (const id of ['a', 'b']) updateRows(db, things, { count: 2 }, { id, kind: ['plain'] });
    updateRows(db, things, { count: 3 }, { id: 'c', kind: ['plain', 'other'] });
    // Each other shape, once: another column set, a condition of each kind, another literal.
    for (const id of ['d', 'e']) insertRow(db, things, { id, kind: 'plain' });
    for (const id of ['d', 'e']) updateRows(db, things, { count: 1 }, { id, label: null });
    for (const id of ['d', 'e']) updateRows(db, things, { count: 1 }, { id, label: 'x' });
    for (const kind of ['plain', 'plain', 'other']) {
      updateRows(db, things, { count: 0 }, { id: 'z', kind: fixed(kind) });
    }
    expect(prepared).toEqual([
      'insert into "things" ("id", "count") values (?, ?)',
      'update "things" set "count" = ? where "id" = ? and "kind" in (?)',
      'update "things" set "count" = ? where "id" = ? and "kind" in (?, ?)',
      'insert into "things" ("id", "kind") values (?, ?)',
      'update "things" set "count" = ? where "id" = ? and "label" is null',
      'update "things" set "count" = ? where "id" = ? and "label" = ?',
      `update "things" set "count" = ? where "id" = ? and "kind" = 'plain'`,
      `update "things" set "count" = ? where "id" = ? and "kind" = 'other'`,
    ]);
    expect(db.get(sql`select sum(count) as total from things`)).toEqual({ total: 9 });
  });
});
