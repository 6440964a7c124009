import { openSqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store';
import type { Store } from './store';

/** True when `databaseUrl` names PostgreSQL rather than a SQLite file. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl);
}

/**
 * Opens the store a DATABASE_URL points at, migrated and ready. Only SQLite exists so far; a
 * `postgres://` URL will select the PostgreSQL store.
 */
export function openStore(databaseUrl: string, options: SqliteStoreOptions = {}): Store {
  if (isPostgresUrl(databaseUrl)) {
    throw new Error('PostgreSQL is not supported yet: use a SQLite file path for DATABASE_URL');
  }
  return openSqliteStore(databaseUrl, options);
}
