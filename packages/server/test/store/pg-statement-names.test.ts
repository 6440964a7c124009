import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgPool } from '../../src/store/postgres/pg-connection';
import { nameStatements } from '../../src/store/postgres/pg-statement-names';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database';

/** The statements the connection keeps prepared on the server, by their text. */
async function prepared(run: (text: string) => Promise<pg.QueryResult>): Promise<string[]> {
  const result = await run('select statement from pg_prepared_statements order by statement');
  return result.rows.map((row: { statement: string }) => row.statement);
}

describe('PostgreSQL statements named after their text', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase({ unmigrated: true });
    const setup = new pg.Client({ connectionString: database.url });
    await setup.connect();
    await setup.query(
      'create table notes (id integer primary key, body text not null); insert into notes values (1, $$one$$), (2, $$two$$)',
    );
    await setup.end();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('prepares a parameterised statement once per connection and answers from it every time', async () => {
    const pool = openPgPool(database.url, { max: 1 });
    try {
      const byId = 'select body from notes where id = $1';
      expect((await pool.query(byId, [1])).rows).toEqual([{ body: 'one' }]);
      expect((await pool.query({ text: byId, values: [2] })).rows).toEqual([{ body: 'two' }]);
      expect((await pool.query(byId, [3])).rows).toEqual([]);
      expect(await prepared((text) => pool.query(text))).toEqual([byId]);
      const names = await pool.query('select name from pg_prepared_statements');
      expect(names.rows).toEqual([{ name: expect.stringMatching(/^sb_[\w-]{27}$/) }]);
    } finally {
      await pool.end();
    }
  });

  it('keeps statements without parameters, and several statements in one text, unnamed', async () => {
    const pool = openPgPool(database.url, { max: 1 });
    try {
      await pool.query('begin; select 1; commit');
      expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }]);
      expect(await prepared((text) => pool.query(text))).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('keeps a name the caller gave', async () => {
    const pool = openPgPool(database.url, { max: 1 });
    try {
      await pool.query({ name: 'mine', text: 'select body from notes where id = $1', values: [1] });
      const names = await pool.query('select name from pg_prepared_statements');
      expect(names.rows).toEqual([{ name: 'mine' }]);
    } finally {
      await pool.end();
    }
  });

  it('prepares nothing when named statements are off (DATABASE_NAMED_STATEMENTS=false)', async () => {
    const pool = openPgPool(database.url, { max: 1, namedStatements: false });
    try {
      expect((await pool.query('select body from notes where id = $1', [2])).rows).toEqual([
        { body: 'two' },
      ]);
      expect(await prepared((text) => pool.query(text))).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('runs the texts past the limit unnamed, with the same answers', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      nameStatements(client, { limit: 2 });
      const texts = [
        'select body from notes where id = $1',
        'select body from notes where id = $1 and body is not null',
        'select body from notes where id = $1 and length(body) > 0',
      ];
      for (const text of texts) {
        expect((await client.query(text, [1])).rows).toEqual([{ body: 'one' }]);
        expect((await client.query(text, [2])).rows).toEqual([{ body: 'two' }]);
      }
      expect(await prepared((text) => client.query(text))).toEqual(texts.slice(0, 2).sort());
    } finally {
      await client.end();
    }
  });

  it('answers a statement that fails to prepare with its error, and the connection goes on', async () => {
    const pool = openPgPool(database.url, { max: 1 });
    try {
      await expect(pool.query('select body from missing where id = $1', [1])).rejects.toThrow(
        /relation "missing" does not exist/,
      );
      expect((await pool.query('select body from notes where id = $1', [1])).rows).toEqual([
        { body: 'one' },
      ]);
    } finally {
      await pool.end();
    }
  });

  it('remakes the cached plans once the first delay has passed, then at twice the gap, up to the longest', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('create table grow (kind text not null)');
      // A generic plan at once, so what is cached is the plan made for the table's size then.
      await client.query('set plan_cache_mode = force_generic_plan');
      let clock = 0;
      nameStatements(client, { now: () => clock, planRefresh: { firstMs: 1000, longestMs: 3000 } });
      const count = 'select count(*)::int as n from grow where kind = $1';
      const run = async () => (await client.query(count, ['a'])).rows[0] as { n: number };
      /** The total cost of the plan the connection has cached for `count`. */
      const cachedCost = async (): Promise<number> => {
        const { rows } = await client.query(
          `select name from pg_prepared_statements where statement = '${count}'`,
        );
        const name = (rows[0] as { name: string }).name;
        const plan = await client.query(`explain (format json) execute "${name}"('a')`);
        return (plan.rows[0] as { 'QUERY PLAN': [{ Plan: { 'Total Cost': number } }] })[
          'QUERY PLAN'
        ][0].Plan['Total Cost'];
      };
      const grow = (rows: number) =>
        client.query(`insert into grow select 'a' from generate_series(1, ${rows})`);

      expect(await run()).toEqual({ n: 0 });
      const empty = await cachedCost();
      await grow(50_000);
      clock = 999;
      expect(await run()).toEqual({ n: 50_000 });
      expect(await cachedCost()).toBe(empty);

      clock = 1000;
      expect(await run()).toEqual({ n: 50_000 });
      const remade = await cachedCost();
      expect(remade).toBeGreaterThan(empty * 5);

      await grow(50_000);
      clock = 2999; // the next refresh is 2 s after the first
      expect(await run()).toEqual({ n: 100_000 });
      expect(await cachedCost()).toBe(remade);
      clock = 3000;
      expect(await run()).toEqual({ n: 100_000 });
      const second = await cachedCost();
      expect(second).toBeGreaterThan(remade * 1.5);

      await grow(50_000);
      clock = 5999; // then 3 s, the longest gap
      await run();
      expect(await cachedCost()).toBe(second);
      clock = 6000;
      await run();
      expect(await cachedCost()).toBeGreaterThan(second * 1.2);
    } finally {
      await client.end();
    }
  });

  it('answers a statement asked with a callback (as the pool of pg asks) when the plans are dropped before it', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      let clock = 0;
      nameStatements(client, { now: () => clock });
      const byId = 'select body from notes where id = $1';
      const ask = (id: number) =>
        new Promise<unknown>((resolve, reject) => {
          client.query(byId, [id], (error: Error | null, result: pg.QueryResult) =>
            error ? reject(error) : resolve(result.rows),
          );
        });
      expect(await ask(1)).toEqual([{ body: 'one' }]);
      clock = 60_000;
      expect(await ask(2)).toEqual([{ body: 'two' }]);
    } finally {
      await client.end();
    }
  });
});
