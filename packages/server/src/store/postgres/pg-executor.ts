import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';

/** drizzle over PostgreSQL: the pool outside a transaction, the transaction's client inside. */
export type PgOrm = PgDatabase<NodePgQueryResultHKT>;

/** Runs drizzle work on the pool, or on the client of the transaction in progress. */
export type PgExecutor = <T>(work: (db: PgOrm) => Promise<T>) => Promise<T>;

/** The first row of `rows`, or undefined when there is none. */
export function first<T>(rows: readonly T[]): T | undefined {
  return rows[0];
}

/** How many rows a write changed. */
export function changed(result: { rowCount: number | null }): number {
  return result.rowCount ?? 0;
}
