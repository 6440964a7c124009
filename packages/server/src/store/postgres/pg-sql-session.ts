import type { SQL } from 'drizzle-orm';
import type { SqlSession } from '../sql-session';
import type { PgExecutor } from './pg-executor';

/** A {@link SqlSession} over a PostgreSQL executor. */
export function pgSqlSession(run: PgExecutor): SqlSession {
  return {
    dialect: 'postgres',
    rows: <T>(query: SQL) => run(async (db) => (await db.execute(query)).rows as T[]),
    execute: (query: SQL) => run(async (db) => (await db.execute(query)).rowCount ?? 0),
    time: (at: Date) => at,
  };
}
