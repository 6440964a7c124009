import type { SqliteOrm } from './connection';

/**
 * A query built once per connection and reused: drizzle rebuilds the SQL of a query every time it
 * runs (most of the CPU of a send went there), while a prepared query with placeholders is only
 * bound and run. For the hottest look-ups; use `sql.placeholder(name)` for the varying values
 * (text columns only: placeholders skip drizzle's column value mapping).
 * @example const byId = preparedQuery((db) => db.select().from(t).where(eq(t.id, sql.placeholder('id'))).prepare());
 */
export function preparedQuery<Q>(build: (db: SqliteOrm) => Q): (db: SqliteOrm) => Q {
  const built = new WeakMap<SqliteOrm, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
