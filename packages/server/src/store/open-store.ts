import { openSqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store';
import type { Store } from './store';

/** True when `databaseUrl` names PostgreSQL rather than a SQLite file. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl);
}

/** Options of {@link openStore}: those of either backend. */
export interface OpenStoreOptions extends SqliteStoreOptions {
  /** Most connections of the PostgreSQL pool (`DATABASE_POOL_SIZE`). */
  poolSize?: number;
  /** Whether PostgreSQL statements run named (`DATABASE_NAMED_STATEMENTS`, on by default). */
  namedStatements?: boolean;
  /** Told of errors of idle PostgreSQL connections (they are replaced on demand). */
  onIdleError?: (error: Error) => void;
}

/**
 * Opens the store a DATABASE_URL points at, migrated and ready: PostgreSQL for a `postgres://`
 * (or `postgresql://`) URL, otherwise the SQLite file at that path. The PostgreSQL store (and
 * `pg`) is loaded only when asked for, so a SQLite server does not carry it in memory.
 */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) {
    const { openPgStore } = await import('./postgres/pg-store');
    return openPgStore(databaseUrl, {
      encryptionKey: options.encryptionKey,
      ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
      ...(options.namedStatements === undefined
        ? {}
        : { namedStatements: options.namedStatements }),
      ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}),
    });
  }
  return openSqliteStore(databaseUrl, options);
}
