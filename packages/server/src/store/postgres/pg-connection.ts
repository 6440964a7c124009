import { dirname, join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { findUp, moduleDir } from '../../find-up';
import type { PgOrm } from './pg-executor';
import { nameStatements } from './pg-statement-names';

/**
 * The key of the advisory lock held while migrating: processes starting at the same time migrate
 * one after the other, and the later ones find nothing left to apply.
 */
const MIGRATION_LOCK_KEY = 0x5b_0a_4d_01;

/** Options of {@link openPgPool}. */
export interface PgPoolOptions {
  /** Most connections the pool opens (`DATABASE_POOL_SIZE`). */
  max?: number;
  /**
   * Runs parameterised statements as named (prepared) ones, parsed and planned once per
   * connection (`DATABASE_NAMED_STATEMENTS`, on by default); off for a pooler that cannot keep
   * them across transactions.
   */
  namedStatements?: boolean;
  /** Called with errors of idle connections (a restarted server); they are replaced on demand. */
  onIdleError?: (error: Error) => void;
}

/** A pool of connections to the PostgreSQL database at `url`. */
export function openPgPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // A request fails with 503 instead of hanging when the database does not answer.
    connectionTimeoutMillis: 5000,
    application_name: 'switchboard',
  });
  // Without a listener, an idle connection the server closed would crash the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  if (options.namedStatements !== false) pool.on('connect', (client) => nameStatements(client));
  return pool;
}

/** drizzle over a pool (or one of its clients). */
export function createPgOrm(client: pg.Pool | pg.PoolClient): PgOrm {
  return drizzle(client);
}

/**
 * The folder of the PostgreSQL migrations (`packages/server/drizzle-pg`), found by walking up
 * from this module, from `src/store/postgres/` under tsx and from `dist/` once built.
 */
export function findPgMigrationsFolder(start: string = moduleDir(import.meta.url)): string {
  return dirname(dirname(findUp(join('drizzle-pg', 'meta', '_journal.json'), start)));
}

/**
 * Applies every pending migration under an advisory lock, on one connection of `pool`: of
 * several processes starting at once, one migrates and the others wait, then find nothing to do.
 */
export async function migratePg(
  pool: pg.Pool,
  migrationsFolder = findPgMigrationsFolder(),
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(createPgOrm(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
