import type { SqliteOrm } from './connection';

/**
 * Runs synchronous drizzle work against the connection: through the store's lock outside a
 * transaction, directly inside one (the transaction already holds the lock).
 */
export type SqliteExecutor = <T>(work: (db: SqliteOrm) => T) => Promise<T>;
