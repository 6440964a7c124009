import type Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import type { Repositories, Store, UnitOfWork } from '../store';
import { createOrm, migrateSqlite, openSqlite, type SqliteOrm } from './connection';
import type { SqliteExecutor } from './executor';
import { SerialLock } from './serial-lock';
import { SqliteApiKeyRepository } from './sqlite-api-key-repository';
import { SqliteCapabilityCacheRepository } from './sqlite-capability-cache-repository';
import { SqliteConversationRepository } from './sqlite-conversation-repository';
import { SqliteCustomerRepository } from './sqlite-customer-repository';
import { SqliteDeliveryRepository } from './sqlite-delivery-repository';
import { SqliteEventRepository } from './sqlite-event-repository';
import { SqliteFaceTimeCallRepository } from './sqlite-facetime-call-repository';
import { SqliteInstanceRepository } from './sqlite-instance-repository';
import { SqliteMessageAttemptRepository } from './sqlite-message-attempt-repository';
import { SqliteMessageReactionRepository } from './sqlite-message-reaction-repository';
import { SqliteMessageRepository } from './sqlite-message-repository';
import { SqliteNumberRepository } from './sqlite-number-repository';
import { SqliteProviderStateRepository } from './sqlite-provider-state-repository';
import { SqliteServerSecretRepository } from './sqlite-server-secret-repository';
import { SqliteSignupCodeRepository } from './sqlite-signup-code-repository';
import { SqliteStoredAttachmentRepository } from './sqlite-stored-attachment-repository';
import { SqliteWebhookRepository } from './sqlite-webhook-repository';
import { SqliteWhatsAppSessionRepository } from './sqlite-whatsapp-session-repository';

function repositories(run: SqliteExecutor): Repositories {
  return {
    customers: new SqliteCustomerRepository(run),
    apiKeys: new SqliteApiKeyRepository(run),
    instances: new SqliteInstanceRepository(run),
    numbers: new SqliteNumberRepository(run),
    messages: new SqliteMessageRepository(run),
    messageAttempts: new SqliteMessageAttemptRepository(run),
    messageReactions: new SqliteMessageReactionRepository(run),
    capabilityCache: new SqliteCapabilityCacheRepository(run),
    providerState: new SqliteProviderStateRepository(run),
    events: new SqliteEventRepository(run),
    webhooks: new SqliteWebhookRepository(run),
    deliveries: new SqliteDeliveryRepository(run),
    conversations: new SqliteConversationRepository(run),
    whatsappSessions: new SqliteWhatsAppSessionRepository(run),
    storedAttachments: new SqliteStoredAttachmentRepository(run),
    signupCodes: new SqliteSignupCodeRepository(run),
    faceTimeCalls: new SqliteFaceTimeCallRepository(run),
    serverSecrets: new SqliteServerSecretRepository(run),
  };
}

/** Runs post-commit callbacks; one that throws must not turn a committed change into a failure. */
function runCommitted(callbacks: ReadonlyArray<() => void>): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      process.emitWarning(
        `afterCommit callback failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
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
  readonly messageReactions;
  readonly capabilityCache;
  readonly providerState;
  readonly events;
  readonly webhooks;
  readonly deliveries;
  readonly conversations;
  readonly whatsappSessions;
  readonly storedAttachments;
  readonly signupCodes;
  readonly faceTimeCalls;
  readonly serverSecrets;
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
    this.messages = repos.messages;
    this.messageAttempts = repos.messageAttempts;
    this.messageReactions = repos.messageReactions;
    this.capabilityCache = repos.capabilityCache;
    this.providerState = repos.providerState;
    this.events = repos.events;
    this.webhooks = repos.webhooks;
    this.deliveries = repos.deliveries;
    this.conversations = repos.conversations;
    this.whatsappSessions = repos.whatsappSessions;
    this.storedAttachments = repos.storedAttachments;
    this.signupCodes = repos.signupCodes;
    this.faceTimeCalls = repos.faceTimeCalls;
    this.serverSecrets = repos.serverSecrets;
  }

  async transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    const committed: Array<() => void> = [];
    // IMMEDIATE takes the write lock up front, so a second process cannot make us fail half-way
    // with SQLITE_BUSY on the first write.
    const result = await this.#lock.run(() =>
      this.#runScope(work, 0, 'BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK', committed),
    );
    // Outside the lock's context, so a callback may use the store again.
    runCommitted(committed);
    return result;
  }

  afterCommit(callback: () => void): void {
    runCommitted([callback]);
  }

  /** Runs `work` between `begin` and `commit`, or `rollback` when it throws. */
  async #runScope<T>(
    work: (tx: UnitOfWork) => Promise<T>,
    depth: number,
    begin: string,
    commit: string,
    rollback: string,
    committed: Array<() => void>,
  ): Promise<T> {
    let open = true;
    // This scope's callbacks join the enclosing scope's only when this scope commits.
    const pending: Array<() => void> = [];
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
          pending,
        );
      },
      afterCommit: (callback) => {
        if (!open) throw new Error('Transaction already finished: its repositories are closed');
        pending.push(callback);
      },
    };
    this.#sqlite.exec(begin);
    try {
      const result = await work(tx);
      this.#sqlite.exec(commit);
      committed.push(...pending);
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
