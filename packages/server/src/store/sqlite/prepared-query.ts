import { type Column, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { builtOncePer } from '../built-once';
import type { SqliteOrm } from './connection';
import { sqlLiteral } from './table-statements';

/**
 * A query built once per connection and reused: drizzle rebuilds the SQL of a query every time it
 * runs (most of the CPU of a send went there), while a prepared query with placeholders is only
 * bound and run. For the hottest look-ups; use `sql.placeholder(name)` for varying text values
 * and {@link columnPlaceholder} for values the column encodes (placeholders compared with `eq()`
 * and the like skip drizzle's column value mapping).
 * @example const byId = preparedQuery((db) => db.select().from(t).where(eq(t.id, sql.placeholder('id'))).prepare());
 */
export function preparedQuery<Q>(build: (db: SqliteOrm) => Q): (db: SqliteOrm) => Q {
  const byShape = preparedQueries((db, _shape: 'only') => build(db));
  return (db) => byShape(db, 'only');
}

/**
 * Like {@link preparedQuery} for a query whose shape varies (optional filters): one prepared
 * query per connection and `shape`, built by `build(db, shape)`. Shapes must be few (a key made
 * of which filters are present), never values.
 * @example const page = preparedQueries((db, shape: 'all' | 'to') => …); page(db, 'to').all({ to });
 */
export function preparedQueries<S extends string, Q>(
  build: (db: SqliteOrm, shape: S) => Q,
): (db: SqliteOrm, shape: S) => Q {
  return builtOncePer((db: SqliteOrm) => db, build);
}

/**
 * A placeholder whose value `column` encodes when the query runs (a `Date` for a timestamp
 * column, a boolean for a boolean one), as drizzle does for literal values. Its value must not be
 * null: compare with `isNull()` instead.
 * @example lte(messages.createdAt, columnPlaceholder(messages.createdAt, 'before'))
 */
export function columnPlaceholder(column: Column, name: string): SQLWrapper {
  return sql.param(sql.placeholder(name), column);
}

/**
 * `column = <constant>` with the constant written into the SQL text, for a column that a partial
 * index's `WHERE` mentions: compared with a bound parameter (drizzle's `eq()`), it makes SQLite
 * re-prepare the statement on every run (see `fixed` in table-statements.ts).
 * @example equalsConstant(webhooks.active, true) // "webhooks"."active" = 1
 */
export function equalsConstant(column: Column, value: string | boolean): SQL {
  return sql`${column} = ${sql.raw(sqlLiteral(column, value))}`;
}
