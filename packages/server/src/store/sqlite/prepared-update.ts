import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { SqliteOrm } from './connection';
import {
  bindConditions,
  cachedStatement,
  definedColumns,
  type RowConditions,
  tableShape,
} from './table-statements';

/**
 * Sets the defined fields of `patch` on the rows of `table` that meet `where`, with one statement
 * prepared per table, set of columns and shape of conditions, and cached on the connection;
 * returns how many rows changed. Like `db.update(table).set(patch).where(…)`, undefined fields
 * are left alone and values are encoded by their drizzle columns, but the SQL is built once per
 * shape instead of on every call.
 * @throws {Error} when `patch` sets nothing (drizzle refuses that too).
 * @example updateRows(db, messages, { status: 'pending', updatedAt }, { id, status: ['queued'] });
 */
export function updateRows<T extends SQLiteTable>(
  db: SqliteOrm,
  table: T,
  patch: Partial<T['$inferInsert']>,
  where: RowConditions<T>,
): number {
  const shape = tableShape(table);
  const values: unknown[] = [];
  const { columns: set, key } = definedColumns(
    shape,
    patch as Readonly<Record<string, unknown>>,
    values,
  );
  if (set.length === 0) throw new Error(`No values to set in ${shape.sqlName}`);
  const conditions = bindConditions(shape, where as Readonly<Record<string, unknown>>, values);
  const statement = cachedStatement(
    db,
    `${shape.sqlName} update ${key} where ${conditions.key}`,
    () => {
      const assignments = set.map((column) => `${column.sqlName} = ?`).join(', ');
      const filter = conditions.sql();
      return `update ${shape.sqlName} set ${assignments}${filter === '' ? '' : ` where ${filter}`}`;
    },
  );
  return statement.run(...values).changes;
}
