import type Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import type { Repositories, Store, UnitOfWork } from '../store';
import { createOrm, migrateSqlite, openSqlite, type SqliteOrm } from './connection';
import type { SqliteExecutor } from './executor';
import { SerialLock } from './serial-lock';
import { SqliteApiKeyRepository } from './sqlite-api-key-repository';
import { SqliteCustomerRepository } from './sqlite-customer-repository';
import { SqliteInstanceRepository } from './sqlite-instance-repository';
import { SqliteNumberRepository } from './sqlite-number-repository';

function repositories(run: SqliteExecutor): Repositories {
  return {
    customers: new SqliteCustomerRepository(run),
    apiKeys: new SqliteApiKeyRepository(run),
    instances: new SqliteInstanceRepository(run),
    numbers: new SqliteNumberRepository(run),
  };
}

/**
 * The {@link Store} on one better-sqlite3 connection. Statements are synchronous; a lock
 * serializes every operation so that an asynchronous transaction never interleaves with
 * statements issued by other requests.
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite';
  readonly customers;
  readonly apiKeys;
  readonly instances;
  readonly numbers;
  readonly #sqlite: Database.Database;
  readonly #orm: SqliteOrm;
  readonly #lock = new SerialLock();

  /** Wraps an open connection (see {@link openSqliteStore}). */
  constructor(sqlite: Database.Database) {
    this.#sqlite = sqlite;
    this.#orm = createOrm(sqlite);
    const repos = repositories((work) => this.#lock.run(() => work(this.#orm)));
    this.customers = repos.customers;
    this.apiKeys = repos.apiKeys;
    this.instances = repos.instances;
    this.numbers = repos.numbers;
  }

  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    // IMMEDIATE takes the write lock up front, so a second process cannot make us fail half-way
    // with SQLITE_BUSY on the first write.
    return this.#lock.run(() => this.#runScope(work, 0, 'BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK'));
  }

  /** Runs `work` between `begin` and `commit`, or `rollback` when it throws. */
  async #runScope<T>(
    work: (tx: UnitOfWork) => Promise<T>,
    depth: number,
    begin: string,
    commit: string,
    rollback: string,
  ): Promise<T> {
    let open = true;
    const tx: UnitOfWork = {
      ...repositories(async (statement) => {
        if (!open) throw new Error('Transaction already finished: its repositories are closed');
        return statement(this.#orm);
      }),
      transaction: (inner) => {
        const savepoint = `sp_${depth + 1}`;
        return this.#runScope(
          inner,
          depth + 1,
          `SAVEPOINT ${savepoint}`,
          `RELEASE ${savepoint}`,
          `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`,
        );
      },
    };
    this.#sqlite.exec(begin);
    try {
      const result = await work(tx);
      this.#sqlite.exec(commit);
      return result;
    } catch (error) {
      if (this.#sqlite.inTransaction) this.#sqlite.exec(rollback);
      throw error;
    } finally {
      open = false;
    }
  }

  ping(): Promise<void> {
    return this.#lock.run(() => {
      this.#orm.get(sql`select 1`);
    });
  }

  close(): Promise<void> {
    return this.#lock.run(() => {
      if (this.#sqlite.open) this.#sqlite.close();
    });
  }
}

/**
 * Opens the SQLite database at `path`, applies pending migrations and returns the store.
 * @example const store = openSqliteStore('./data/switchboard.db');
 */
export function openSqliteStore(path: string): SqliteStore {
  const sqlite = openSqlite(path);
  try {
    migrateSqlite(createOrm(sqlite));
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return new SqliteStore(sqlite);
}
