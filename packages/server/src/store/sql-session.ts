import type { SQL } from 'drizzle-orm';

/**
 * Hand-written SQL on either store, for the few jobs that touch many tables at once (erasing a
 * contact, pruning by age) and would otherwise be written twice: each store adapts its executor.
 */
export interface SqlSession {
  /** Which database answers. */
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs a query and answers its rows. */
  rows<T>(query: SQL): Promise<T[]>;
  /** Runs a write and answers how many rows it changed. */
  execute(query: SQL): Promise<number>;
  /** A point in time as the store's timestamp columns hold it (epoch ms on SQLite). */
  time(at: Date): Date | number;
}
