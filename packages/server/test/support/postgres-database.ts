import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  findPgMigrationsFolder,
  migratePg,
  openPgPool,
} from '../../src/store/postgres/pg-connection';

/**
 * The PostgreSQL server the tests use: a maintenance database URL (trust auth on loopback in CI,
 * where `.ci/run` starts the server). Tests create and drop databases of their own on it.
 */
export const TEST_POSTGRES_URL =
  process.env.SWITCHBOARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** An encryption key for test databases (PostgreSQL requires one). */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

/** The URL of database `name` on the test server. */
function urlOf(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a connection to the maintenance database. */
async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** PostgreSQL's object_in_use: another CREATE DATABASE is copying the same template. */
const OBJECT_IN_USE = '55006';

let template: Promise<string> | undefined;

/**
 * The migrated template database of the current migrations (named after their hash), created
 * once per server under an advisory lock: a fresh test database is a copy of it, which takes a
 * few milliseconds where migrating one would take a second.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const journal = readFileSync(join(findPgMigrationsFolder(), 'meta', '_journal.json'));
    const name = `switchboard_template_${createHash('sha256').update(journal).digest('hex').slice(0, 12)}`;
    await withAdmin(async (admin) => {
      await admin.query('select pg_advisory_lock(48151623)');
      try {
        const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [
          name,
        ]);
        if (rowCount === 0) {
          await admin.query(`create database "${name}"`);
          const pool = openPgPool(urlOf(name), { max: 1 });
          try {
            await migratePg(pool);
          } finally {
            await pool.end();
          }
        }
      } finally {
        await admin.query('select pg_advisory_unlock(48151623)');
      }
    });
    return name;
  })();
  return template;
}

/** A fresh database of the test server, migrated, and how to drop it. */
export interface TestDatabase {
  /** Its connection URL. */
  url: string;
  /** Drops it (closing whatever still connects to it). */
  drop(): Promise<void>;
}

/**
 * Creates a fresh, migrated, empty database on the test PostgreSQL server; `unmigrated: true`
 * leaves out the migrations (a database as an operator creates it).
 */
export async function createTestDatabase(
  options: { unmigrated?: boolean } = {},
): Promise<TestDatabase> {
  const source = options.unmigrated ? 'template0' : await migratedTemplate();
  const name = `switchboard_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await admin.query(`create database "${name}" template "${source}"`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= 50) throw error;
        await sleep(20 + Math.random() * 30);
      }
    }
  });
  return {
    url: urlOf(name),
    drop: () =>
      withAdmin((admin) =>
        admin.query(`drop database if exists "${name}" with (force)`).then(() => undefined),
      ),
  };
}
