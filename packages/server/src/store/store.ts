import type { ApiKeyRepository } from './api-key-repository';
import type { CustomerRepository } from './customer-repository';
import type { InstanceRepository } from './instance-repository';
import type { NumberRepository } from './number-repository';

/** Every repository, as seen inside or outside a transaction. */
export interface Repositories {
  /** Customer accounts. */
  readonly customers: CustomerRepository;
  /** API keys. */
  readonly apiKeys: ApiKeyRepository;
  /** Provider instances. */
  readonly instances: InstanceRepository;
  /** Sender numbers. */
  readonly numbers: NumberRepository;
}

/**
 * Repositories that can open a transaction: the store itself, or a transaction in progress (where
 * `transaction()` opens a nested one, a savepoint). Domain services take a unit of work, so the
 * same service runs alone or as part of a larger transaction.
 */
export interface UnitOfWork extends Repositories {
  /**
   * Runs `work` in one transaction: everything it does through `tx` commits together or not at
   * all. Use only `tx` inside `work` (the outer store would wait for the transaction to end), and
   * keep network calls out of it: it holds the database while it runs.
   */
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
}

/**
 * The persistence boundary: the domain talks to these repositories only, never to a database
 * driver, so another backend (PostgreSQL) can implement the same interface.
 */
export interface Store extends UnitOfWork {
  /** Which backend this is. */
  readonly kind: 'sqlite';
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /** Closes the database once pending operations finished. */
  close(): Promise<void>;
}
