import type { SQL } from 'drizzle-orm';
import type { SqlSession } from '../sql-session';
import type { SqliteExecutor } from './executor';

/** A {@link SqlSession} over a SQLite executor. */
export function sqliteSqlSession(run: SqliteExecutor): SqlSession {
  return {
    dialect: 'sqlite',
    rows: <T>(query: SQL) => run((db) => db.all<T>(query)),
    execute: (query: SQL) => run((db) => db.run(query).changes),
    time: (at: Date) => at.getTime(),
  };
}
