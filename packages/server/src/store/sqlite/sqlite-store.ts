import type Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { type ResolvedEncryptionKey, resolveEncryptionKey } from '../../crypto/encryption-key';
import { FieldCipher } from '../../crypto/field-cipher';
import { runCommitted } from '../run-committed';
import type { Store, StoreEncryption, UnitOfWork } from '../store';
import { createOrm, migrateSqlite, openSqlite, type SqliteOrm } from './connection';
import type { SqliteExecutor } from './executor';
import { reencryptSecrets, sealLegacySecrets } from './sealed-columns';
import { SerialLock } from './serial-lock';
import { SqliteRepositories } from './sqlite-repositories';
import { withStatementCache } from './statement-cache';
import { startWalCheckpointer } from './wal-checkpointer';

/** What a transaction scope's unit of work does beyond its repositories. */
interface ScopeHandle {
  /** Runs `work` in a scope nested in this one (a savepoint). */
  nest<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  /** Keeps `callback` for once the outermost transaction commits. */
  afterCommit(callback: () => void): void;
}

/** The unit of work of one transaction scope: its repositories, nested scopes, commit callbacks. */
class ScopeUnitOfWork extends SqliteRepositories implements UnitOfWork {
  readonly #handle: ScopeHandle;

  constructor(run: SqliteExecutor, cipher: FieldCipher, handle: ScopeHandle) {
    super(run, cipher);
    this.#handle = handle;
  }

  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    return this.#handle.nest(work);
  }

  afterCommit(callback: () => void): void {
    this.#handle.afterCommit(callback);
  }
}

/** Most transactions committed together: bounds how long the last of a group waits. */
const MAX_GROUP = 256;

/** How a unit of a group commit ended; `committed` holds its post-commit callbacks. */
type UnitOutcome =
  | { ok: true; value: unknown; committed: Array<() => void> }
  | { ok: false; error: unknown };

/** Opening, committing and rolling back one transaction scope: prepared statements, run. */
interface ScopeStatements {
  begin(): void;
  commit(): void;
  rollback(): void;
}

/**
 * The transaction-control statements of a connection, prepared once: `exec` parses its SQL on
 * every call, and a send runs several of these.
 */
class TransactionStatements {
  /**
   * The outermost transaction. IMMEDIATE takes the write lock up front, so a second process
   * cannot make us fail half-way with SQLITE_BUSY on the first write.
   */
  readonly transaction: ScopeStatements;
  readonly #sqlite: Database.Database;
  readonly #savepoints = new Map<string, ScopeStatements>();

  /** Prepares the statements of the outermost transaction on `sqlite`. */
  constructor(sqlite: Database.Database) {
    this.#sqlite = sqlite;
    const begin = sqlite.prepare('BEGIN IMMEDIATE');
    const commit = sqlite.prepare('COMMIT');
    const rollback = sqlite.prepare('ROLLBACK');
    this.transaction = {
      begin: () => begin.run(),
      commit: () => commit.run(),
      rollback: () => rollback.run(),
    };
  }

  /** The savepoint `name` (a fixed identifier: names come from this module, never from input). */
  savepoint(name: string): ScopeStatements {
    let scope = this.#savepoints.get(name);
    if (!scope) {
      const begin = this.#sqlite.prepare(`SAVEPOINT ${name}`);
      const release = this.#sqlite.prepare(`RELEASE ${name}`);
      const rollbackTo = this.#sqlite.prepare(`ROLLBACK TO ${name}`);
      scope = {
        begin: () => begin.run(),
        commit: () => release.run(),
        rollback: () => {
          rollbackTo.run();
          release.run();
        },
      };
      this.#savepoints.set(name, scope);
    }
    return scope;
  }
}

/** A transaction waiting for its group commit. */
interface QueuedUnit {
  work: (tx: UnitOfWork) => Promise<unknown>;
  settle: (outcome: UnitOutcome) => void;
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
  readonly messages;
  readonly messageAttempts;
  readonly messageParts;
  readonly routingSteps;
  readonly messageReceipts;
  readonly messageReactions;
  readonly capabilityCache;
  readonly providerState;
  readonly providerLeases;
  readonly events;
  readonly webhooks;
  readonly deliveries;
  readonly conversations;
  readonly whatsappSessions;
  readonly storedAttachments;
  readonly mediaRenditions;
  readonly signupCodes;
  readonly faceTimeCalls;
  readonly serverSecrets;
  readonly callbackSecrets;
  readonly providerEventReceipts;
  readonly optOuts;
  readonly unroutedInbound;
  readonly contactErasures;
  readonly retention;
  readonly sendPolicies;
  readonly encryption: StoreEncryption;
  readonly #sqlite: Database.Database;
  readonly #beforeClose: () => Promise<void>;
  readonly #orm: SqliteOrm;
  readonly #lock = new SerialLock();
  readonly #statements: TransactionStatements;
  readonly #cipher: FieldCipher;
  /** Transactions waiting for the next group commit. */
  readonly #queued: QueuedUnit[] = [];
  #flushQueued = false;
  /** True from the start of a flush to its end: a transaction may be open on the connection. */
  #flushing = false;

  /** Wraps an open connection (see {@link openSqliteStore}); `key` encrypts its secrets. */
  constructor(
    sqlite: Database.Database,
    key: ResolvedEncryptionKey,
    beforeClose: () => Promise<void> = async () => undefined,
  ) {
    this.#sqlite = sqlite;
    this.#beforeClose = beforeClose;
    this.#orm = createOrm(withStatementCache(sqlite));
    this.#statements = new TransactionStatements(sqlite);
    this.#cipher = new FieldCipher(key.key);
    const { key: _key, ...source } = key;
    this.encryption = { ...source, keyId: this.#cipher.keyId };
    const repos = new SqliteRepositories((work) => this.#execute(work), this.#cipher);
    this.customers = repos.customers;
    this.apiKeys = repos.apiKeys;
    this.instances = repos.instances;
    this.numbers = repos.numbers;
    this.messages = repos.messages;
    this.messageAttempts = repos.messageAttempts;
    this.messageParts = repos.messageParts;
    this.routingSteps = repos.routingSteps;
    this.messageReceipts = repos.messageReceipts;
    this.messageReactions = repos.messageReactions;
    this.capabilityCache = repos.capabilityCache;
    this.providerState = repos.providerState;
    this.providerLeases = repos.providerLeases;
    this.events = repos.events;
    this.webhooks = repos.webhooks;
    this.deliveries = repos.deliveries;
    this.conversations = repos.conversations;
    this.whatsappSessions = repos.whatsappSessions;
    this.storedAttachments = repos.storedAttachments;
    this.mediaRenditions = repos.mediaRenditions;
    this.signupCodes = repos.signupCodes;
    this.faceTimeCalls = repos.faceTimeCalls;
    this.serverSecrets = repos.serverSecrets;
    this.callbackSecrets = repos.callbackSecrets;
    this.providerEventReceipts = repos.providerEventReceipts;
    this.optOuts = repos.optOuts;
    this.unroutedInbound = repos.unroutedInbound;
    this.contactErasures = repos.contactErasures;
    this.retention = repos.retention;
    this.sendPolicies = repos.sendPolicies;
  }

  /**
   * Runs `work` in a transaction of its own as far as anyone can tell, but commits it together
   * with the other transactions that arrived meanwhile (group commit): one SQLite commit per
   * batch instead of one per transaction shares the commit's WAL write among them. Each
   * unit runs in its own savepoint, so a failing unit rolls back only itself, and its caller
   * hears of success, and its `afterCommit` callbacks run, only once the batch has committed.
   */
  async transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    const reentry = this.#lock.reentryError();
    if (reentry) throw reentry;
    const outcome = await new Promise<UnitOutcome>((settle) => {
      this.#queued.push({ work, settle });
      this.#scheduleFlush();
    });
    if (!outcome.ok) throw outcome.error;
    // In the caller's context, outside the lock's, so a callback may use the store again.
    runCommitted(outcome.committed);
    return outcome.value as T;
  }

  /**
   * Queues one flush of the waiting units behind the lock, unless one is already queued. The
   * flush takes its place in the lock at once (an operation issued after a transaction still
   * runs after it), but waits there for the next turn of the event loop (`setImmediate`) before
   * it starts: every transaction that arrives meanwhile (a burst of parsed requests, the status
   * updates of one provider callback) joins it and shares its commit, where starting at once
   * committed nearly every transaction alone.
   */
  #scheduleFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // `enqueue`, not `run`: a flush scheduled from inside a flush must not count as re-entry.
    void this.#lock.enqueue(async () => {
      await new Promise(setImmediate);
      await this.#flush();
    });
  }

  /**
   * Runs one operation outside a transaction. While no flush is running, no transaction is open
   * on the connection, and a statement on its own is atomic: it runs at once, ahead of a flush
   * still waiting for its turn (a send's look-ups then take one event-loop turn, not one per
   * look-up, and its transaction joins that turn's group). While a flush runs, the operation
   * waits behind it in the lock, so it never sees or splits an uncommitted transaction.
   */
  #execute<T>(work: (db: SqliteOrm) => T): Promise<T> {
    if (this.#flushing) return this.#lock.run(() => work(this.#orm));
    try {
      return Promise.resolve(work(this.#orm));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Commits the waiting units (up to {@link MAX_GROUP}) as one SQLite transaction. */
  async #flush(): Promise<void> {
    this.#flushing = true;
    try {
      await this.#flushBatch();
    } finally {
      this.#flushing = false;
    }
  }

  /** The body of {@link #flush}. */
  async #flushBatch(): Promise<void> {
    this.#flushQueued = false;
    const units = this.#queued.splice(0, MAX_GROUP);
    // Units arriving while this batch runs form the next one.
    if (this.#queued.length > 0) this.#scheduleFlush();
    const [only] = units;
    if (units.length === 0 || !only) return;
    if (units.length === 1) {
      only.settle(await this.#runUnit(only.work, this.#statements.transaction));
      return;
    }
    const outcomes: UnitOutcome[] = [];
    const transaction = this.#statements.transaction;
    try {
      const unitScope = this.#statements.savepoint('group_unit');
      transaction.begin();
      for (const unit of units) {
        outcomes.push(await this.#runUnit(unit.work, unitScope));
        if (!this.#sqlite.inTransaction) {
          // SQLite rolled the whole transaction back (a disk error, say): what the earlier units
          // did is gone, so the whole group fails, with the error that caused it.
          const last = outcomes.at(-1);
          throw last && !last.ok
            ? last.error
            : new Error('SQLite rolled back the transaction of a group commit');
        }
      }
      transaction.commit();
    } catch (error) {
      try {
        if (this.#sqlite.inTransaction) transaction.rollback();
      } catch {
        // The batch fails with its first error either way; a throw here would leave it unsettled.
      }
      for (const [index, unit] of units.entries()) {
        const outcome = outcomes[index];
        unit.settle(outcome && !outcome.ok ? outcome : { ok: false, error });
      }
      return;
    }
    for (const [index, unit] of units.entries()) {
      unit.settle(outcomes[index] ?? { ok: false, error: new Error('unit did not run') });
    }
  }

  /**
   * One unit in `scope`: a transaction of its own when it is alone, a savepoint of the group's
   * transaction otherwise.
   */
  async #runUnit(
    work: (tx: UnitOfWork) => Promise<unknown>,
    scope: ScopeStatements,
  ): Promise<UnitOutcome> {
    const committed: Array<() => void> = [];
    try {
      const value = await this.#runScope(work, 0, scope, committed);
      return { ok: true, value, committed };
    } catch (error) {
      return { ok: false, error };
    }
  }

  afterCommit(callback: () => void): void {
    runCommitted([callback]);
  }

  grouped<T>(work: (repositories: UnitOfWork) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  /** Runs `work` in `scope`: begun, then committed, or rolled back when `work` throws. */
  async #runScope<T>(
    work: (tx: UnitOfWork) => Promise<T>,
    depth: number,
    scope: ScopeStatements,
    committed: Array<() => void>,
  ): Promise<T> {
    let open = true;
    // This scope's callbacks join the enclosing scope's only when this scope commits.
    const pending: Array<() => void> = [];
    const tx = new ScopeUnitOfWork(
      async (statement) => {
        if (!open) throw new Error('Transaction already finished: its repositories are closed');
        return statement(this.#orm);
      },
      this.#cipher,
      {
        nest: (inner) =>
          this.#runScope(inner, depth + 1, this.#statements.savepoint(`sp_${depth + 1}`), pending),
        afterCommit: (callback) => {
          if (!open) throw new Error('Transaction already finished: its repositories are closed');
          pending.push(callback);
        },
      },
    );
    scope.begin();
    try {
      const result = await work(tx);
      scope.commit();
      committed.push(...pending);
      return result;
    } catch (error) {
      if (this.#sqlite.inTransaction) scope.rollback();
      throw error;
    } finally {
      open = false;
    }
  }

  /**
   * Runs `task` while no transaction is open and none starts: transactions that arrive meanwhile
   * wait for it, as they wait for each other.
   */
  whileNothingCommits(task: () => Promise<void>): Promise<void> {
    return this.#lock.run(task);
  }

  reencryptSecrets(newKey: Uint8Array): Promise<number> {
    return this.#lock.run(() =>
      reencryptSecrets(this.#sqlite, this.#cipher, new FieldCipher(newKey)),
    );
  }

  ping(): Promise<void> {
    return this.#lock.run(() => {
      this.#orm.get(sql`select 1`);
    });
  }

  async close(): Promise<void> {
    await this.#beforeClose();
    await this.#lock.run(() => {
      // The last connection to close checkpoints the whole WAL into the database file.
      if (this.#sqlite.open) this.#sqlite.close();
    });
  }
}

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * The key of the database's secrets (SWITCHBOARD_ENCRYPTION_KEY); when unset, the key file
   * next to the database (created on first open).
   */
  encryptionKey?: string | undefined;
  /** How long a statement waits for another connection's lock (`SQLITE_BUSY_TIMEOUT_MS`). */
  busyTimeoutMs?: number;
  /** WAL pages past which commits pause for the background checkpoint to catch up (tests). */
  walRestartFrames?: number;
  /**
   * Checkpoint the WAL on a worker thread every this many milliseconds instead of on the
   * committing connection (`SQLITE_CHECKPOINT_INTERVAL_MS`); 0 or unset: SQLite's own automatic
   * checkpoints. Only for a database file.
   */
  backgroundCheckpointMs?: number;
}

/**
 * Opens the SQLite database at `path`, applies pending migrations, checks the encryption key and
 * encrypts secrets written before encryption existed, and returns the store.
 * @throws {EncryptionKeyError} when the database was written with another key.
 * @example const store = openSqliteStore('./data/switchboard.db');
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const sqlite = openSqlite(path, options.busyTimeoutMs);
  let key: ResolvedEncryptionKey;
  try {
    migrateSqlite(createOrm(sqlite));
    key = resolveEncryptionKey(options.encryptionKey, path);
    sealLegacySecrets(sqlite, new FieldCipher(key.key));
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const intervalMs = options.backgroundCheckpointMs ?? 0;
  if (intervalMs <= 0 || path === ':memory:') return new SqliteStore(sqlite, key);
  sqlite.pragma('wal_autocheckpoint = 0');
  let store: SqliteStore | undefined;
  const checkpointer = startWalCheckpointer(path, {
    intervalMs,
    restartFrames: options.walRestartFrames ?? WAL_RESTART_FRAMES,
    // Commits wait while the worker copies the rest of the WAL (what was committed during its
    // last checkpoint): the WAL is then all copied, and the next commit reuses it from its start.
    onBehind: (catchUp) => store?.whileNothingCommits(catchUp) ?? Promise.resolve(),
    onFailure: (error) => {
      // The committing connection checkpoints again, as SQLite does by default.
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
      process.emitWarning(`${error.message}: checkpoints run on the main connection again`);
    },
  });
  store = new SqliteStore(sqlite, key, () => checkpointer.stop());
  return store;
}

/**
 * WAL pages (4 KB each: 64 MB) past which the committing connection pauses for the worker's
 * checkpoint to catch up. Under commits that never pause, the WAL would otherwise grow without
 * end (a checkpoint beside them is always behind): measured, 1.1 GB in one 10-second benchmark
 * round, 157 MB in two seconds of back-to-back writes.
 */
const WAL_RESTART_FRAMES = 16_384;

/** SQLite's default automatic checkpoint threshold, in WAL pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
