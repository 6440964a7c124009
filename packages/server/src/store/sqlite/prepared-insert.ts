import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { SqliteOrm } from './connection';
import {
  cachedStatement,
  columnOf,
  definedColumns,
  type RowOf,
  tableShape,
} from './table-statements';

/**
 * What an insert does when it meets a uniqueness constraint: fail (the default), insert nothing,
 * or update the `set` columns of the row that has the same `target` columns, to the new values.
 */
export type InsertConflict<T extends SQLiteTable> =
  | 'fail'
  | 'nothing'
  | { readonly target: readonly (keyof RowOf<T>)[]; readonly set: readonly (keyof RowOf<T>)[] };

/** The `on conflict` clause of `conflict` (also part of the statement's cache key). */
function conflictClause(table: SQLiteTable, conflict: InsertConflict<SQLiteTable>): string {
  if (conflict === 'fail') return '';
  if (conflict === 'nothing') return ' on conflict do nothing';
  const shape = tableShape(table);
  const name = (key: PropertyKey) => columnOf(shape, String(key)).sqlName;
  const target = conflict.target.map(name).join(', ');
  const set = conflict.set.map((key) => `${name(key)} = excluded.${name(key)}`).join(', ');
  return ` on conflict (${target}) do update set ${set}`;
}

/**
 * Inserts `row` into `table` with one statement prepared per table, set of columns and conflict
 * rule, and cached on the connection; returns how many rows changed (0 when a conflict inserted
 * nothing). The SQL comes from the drizzle schema (column names, and each column's encoding of
 * Dates, booleans and JSON), so it writes exactly what `db.insert(table).values(row)` writes,
 * without building the query again on every call. Undefined values are left to the column's
 * default, as drizzle does.
 * @example insertRow(db, messageAttempts, attempt, 'nothing');
 */
export function insertRow<T extends SQLiteTable>(
  db: SqliteOrm,
  table: T,
  row: T['$inferInsert'],
  conflict: InsertConflict<T> = 'fail',
): number {
  const shape = tableShape(table);
  const values: unknown[] = [];
  const { columns: present, key } = definedColumns(
    shape,
    row as Readonly<Record<string, unknown>>,
    values,
  );
  const clause = conflictClause(table, conflict as InsertConflict<SQLiteTable>);
  const statement = cachedStatement(db, `${shape.sqlName} insert ${key}${clause}`, () =>
    present.length === 0
      ? `insert into ${shape.sqlName} default values${clause}`
      : `insert into ${shape.sqlName} (${present.map((column) => column.sqlName).join(', ')}) values (${present.map(() => '?').join(', ')})${clause}`,
  );
  return statement.run(...values).changes;
}
