import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { parseEncryptionKey } from '../../crypto/encryption-key';
import { EncryptionKeyError, FieldCipher } from '../../crypto/field-cipher';
import { runCommitted } from '../run-committed';
import { SqlContactErasureRepository } from '../sql-contact-erasure-repository';
import { SqlRetentionRepository } from '../sql-retention-repository';
import { SqlSendPolicyRepository } from '../sql-send-policy-repository';
import type { Repositories, Store, StoreEncryption, UnitOfWork } from '../store';
import { PgApiKeyRepository } from './pg-api-key-repository';
import { PgCallbackSecretRepository } from './pg-callback-secret-repository';
import { PgCapabilityCacheRepository } from './pg-capability-cache-repository';
import { PgClusterChannel } from './pg-cluster-channel';
import { createPgOrm, migratePg, openPgPool } from './pg-connection';
import { PgConversationRepository } from './pg-conversation-repository';
import { PgCustomerRepository } from './pg-customer-repository';
import { PgDeliveryRepository } from './pg-delivery-repository';
import { PgEventRepository } from './pg-event-repository';
import type { PgExecutor, PgOrm } from './pg-executor';
import { PgFaceTimeCallRepository } from './pg-facetime-call-repository';
import { PgInstanceRepository } from './pg-instance-repository';
import { PgMediaRenditionRepository } from './pg-media-rendition-repository';
import { PgMessageAttemptRepository } from './pg-message-attempt-repository';
import { PgMessagePartRepository } from './pg-message-part-repository';
import { PgMessageReactionRepository } from './pg-message-reaction-repository';
import { PgMessageReceiptRepository } from './pg-message-receipt-repository';
import { PgMessageRepository } from './pg-message-repository';
import { PgNumberRepository } from './pg-number-repository';
import { PgOptOutRepository } from './pg-opt-out-repository';
import { PgProviderEventReceiptRepository } from './pg-provider-event-receipt-repository';
import { PgProviderLeaseRepository } from './pg-provider-lease-repository';
import { PgProviderStateRepository } from './pg-provider-state-repository';
import { PgRoutingStepRepository } from './pg-routing-step-repository';
import { checkEncryptionKey, reencryptSecrets } from './pg-sealed-columns';
import { PgSenderPaceBook } from './pg-sender-pace-book';
import { PgServerSecretRepository } from './pg-server-secret-repository';
import { PgSignupCodeRepository } from './pg-signup-code-repository';
import { pgSqlSession } from './pg-sql-session';
import { PgStoredAttachmentRepository } from './pg-stored-attachment-repository';
import { PgUnroutedInboundRepository } from './pg-unrouted-inbound-repository';
import { PgWebhookRepository } from './pg-webhook-repository';
import { PgWhatsAppSessionRepository } from './pg-whatsapp-session-repository';

/** Runs `work` atomically: its own transaction, or a savepoint of the one in progress. */
type Atomically = PgExecutor;

function repositories(run: PgExecutor, atomically: Atomically, cipher: FieldCipher): Repositories {
  return {
    customers: new PgCustomerRepository(run),
    apiKeys: new PgApiKeyRepository(run),
    instances: new PgInstanceRepository(run, cipher),
    numbers: new PgNumberRepository(run),
    messages: new PgMessageRepository(run),
    messageAttempts: new PgMessageAttemptRepository(run),
    messageParts: new PgMessagePartRepository(run),
    routingSteps: new PgRoutingStepRepository(run),
    messageReceipts: new PgMessageReceiptRepository(run),
    messageReactions: new PgMessageReactionRepository(run),
    capabilityCache: new PgCapabilityCacheRepository(run),
    providerState: new PgProviderStateRepository(run, cipher, atomically),
    providerLeases: new PgProviderLeaseRepository(run),
    events: new PgEventRepository(run),
    webhooks: new PgWebhookRepository(run, cipher),
    deliveries: new PgDeliveryRepository(run, cipher),
    conversations: new PgConversationRepository(run),
    whatsappSessions: new PgWhatsAppSessionRepository(run),
    storedAttachments: new PgStoredAttachmentRepository(run),
    mediaRenditions: new PgMediaRenditionRepository(run),
    signupCodes: new PgSignupCodeRepository(run),
    faceTimeCalls: new PgFaceTimeCallRepository(run),
    serverSecrets: new PgServerSecretRepository(run, cipher),
    callbackSecrets: new PgCallbackSecretRepository(run, cipher),
    providerEventReceipts: new PgProviderEventReceiptRepository(run),
    optOuts: new PgOptOutRepository(run),
    unroutedInbound: new PgUnroutedInboundRepository(run, cipher),
    contactErasures: new SqlContactErasureRepository(pgSqlSession(run), (value) =>
      cipher.decrypt(value),
    ),
    retention: new SqlRetentionRepository(pgSqlSession(run)),
    sendPolicies: new SqlSendPolicyRepository(pgSqlSession(run)),
  };
}

/** PostgreSQL's serialization_failure and deadlock_detected: the transaction may simply run again. */
const RETRYABLE_CODES = new Set(['40001', '40P01']);

/** The SQLSTATE of `error`, or of the driver error drizzle wrapped in it. */
function sqlState(error: unknown): string | undefined {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (typeof code === 'string') return code;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * Outside production, a transaction's work runs with a marker in async context, so that using
 * the outer store inside it (instead of `tx`) fails at once, as on SQLite, rather than waiting on
 * another connection for a row the transaction itself holds locked.
 */
const DETECT_REENTRY = process.env.NODE_ENV !== 'production';

/** How many times a transaction runs before a serialization failure reaches its caller. */
const MAX_TRANSACTION_RUNS = 12;

/**
 * The {@link Store} on a PostgreSQL connection pool. Statements outside a transaction take any
 * connection; a transaction holds one connection from BEGIN to COMMIT and runs REPEATABLE READ
 * (a snapshot): when two concurrent transactions change the same row, the later one rolls back
 * and runs again (with its post-commit callbacks dropped), up to {@link MAX_TRANSACTION_RUNS}
 * times, so no read-modify-write loses an update, as on SQLite where transactions run one at a
 * time. Rules that span rows are held by unique indexes and conditional updates.
 */
export class PgStore implements Store {
  readonly kind = 'postgres';
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
  readonly senderPace: PgSenderPaceBook;
  readonly contactErasures;
  readonly retention;
  readonly sendPolicies;
  readonly encryption: StoreEncryption;
  readonly #pool: pg.Pool;
  readonly #db: PgOrm;
  readonly #cipher: FieldCipher;
  readonly #inside = DETECT_REENTRY ? new AsyncLocalStorage<{ running: boolean }>() : undefined;

  /** Wraps an open, migrated pool; `cipher` seals the secrets. */
  constructor(pool: pg.Pool, cipher: FieldCipher) {
    this.#pool = pool;
    this.#db = createPgOrm(pool);
    this.#cipher = cipher;
    this.encryption = { source: 'environment', keyId: cipher.keyId };
    const repos = repositories(
      (work) => this.#outside(() => work(this.#db)),
      (work) => this.#outside(() => this.#db.transaction(work)),
      cipher,
    );
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
    this.senderPace = new PgSenderPaceBook(pool);
    this.contactErasures = repos.contactErasures;
    this.retention = repos.retention;
    this.sendPolicies = repos.sendPolicies;
  }

  async transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    const reentry = this.#reentryError();
    if (reentry) throw reentry;
    for (let run = 1; ; run += 1) {
      const committed: Array<() => void> = [];
      try {
        const value = await this.#db.transaction(
          (tx) => this.#marked(() => this.#runScope(tx, work, committed)),
          { isolationLevel: 'repeatable read' },
        );
        runCommitted(committed);
        return value;
      } catch (error) {
        const state = sqlState(error);
        if (state === undefined || !RETRYABLE_CODES.has(state) || run >= MAX_TRANSACTION_RUNS) {
          throw error;
        }
        // A little jitter, growing with each run, so that the same two do not collide again.
        await sleep(Math.random() * 2 ** Math.min(run, 6));
      }
    }
  }

  afterCommit(callback: () => void): void {
    runCommitted([callback]);
  }

  grouped<T>(work: (repositories: UnitOfWork) => Promise<T>): Promise<T> {
    return this.#outside(() => work(this));
  }

  /** Runs an operation of the outer store, unless it comes from inside one of its transactions. */
  #outside<T>(operation: () => Promise<T>): Promise<T> {
    const reentry = this.#reentryError();
    return reentry ? Promise.reject(reentry) : operation();
  }

  /** The error of using the outer store inside its own transaction, when that is the case. */
  #reentryError(): Error | undefined {
    if (!this.#inside?.getStore()?.running) return undefined;
    return new Error(
      'Store used from inside its own transaction: use the `tx` repositories passed to transaction()',
    );
  }

  /** Runs a transaction's work marked as such (outside production). */
  async #marked<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#inside) return work();
    const marker = { running: true };
    try {
      return await this.#inside.run(marker, work);
    } finally {
      marker.running = false;
    }
  }

  /**
   * Runs `work` on the transaction (or savepoint) `tx`; its post-commit callbacks join
   * `committed` when it returns, and are dropped when it throws (the scope rolls back).
   */
  async #runScope<T>(
    tx: PgOrm & { transaction: PgOrm['transaction'] },
    work: (tx: UnitOfWork) => Promise<T>,
    committed: Array<() => void>,
  ): Promise<T> {
    let open = true;
    const pending: Array<() => void> = [];
    const closedCheck = () => {
      if (!open) throw new Error('Transaction already finished: its repositories are closed');
    };
    const unit: UnitOfWork = {
      ...repositories(
        async (statement) => {
          closedCheck();
          return statement(tx);
        },
        async (statement) => {
          closedCheck();
          return tx.transaction(statement);
        },
        this.#cipher,
      ),
      transaction: (inner) => {
        closedCheck();
        return tx.transaction((savepoint) => this.#runScope(savepoint, inner, pending));
      },
      afterCommit: (callback) => {
        closedCheck();
        pending.push(callback);
      },
    };
    try {
      const result = await work(unit);
      committed.push(...pending);
      return result;
    } finally {
      open = false;
    }
  }

  async reencryptSecrets(newKey: Uint8Array): Promise<number> {
    const to = new FieldCipher(Buffer.from(newKey));
    return this.#db.transaction((tx) => reencryptSecrets(tx, this.#cipher, to), {
      isolationLevel: 'repeatable read',
    });
  }

  clusterChannel(name: string): PgClusterChannel {
    return new PgClusterChannel(this.#pool, name);
  }

  async ping(): Promise<void> {
    await this.#db.execute(sql`select 1`);
  }

  async close(): Promise<void> {
    if (this.#pool.ended) return;
    await this.#pool.end();
  }
}

/** Options of {@link openPgStore}. */
export interface PgStoreOptions {
  /** The key of the database's secrets (SWITCHBOARD_ENCRYPTION_KEY): required on PostgreSQL. */
  encryptionKey?: string | undefined;
  /** Most connections of the pool (`DATABASE_POOL_SIZE`). */
  poolSize?: number;
  /** Whether statements run named (`DATABASE_NAMED_STATEMENTS`, on by default). */
  namedStatements?: boolean;
  /** Called with errors of idle connections. */
  onIdleError?: (error: Error) => void;
}

/**
 * Opens the PostgreSQL database at `url`: applies pending migrations (under an advisory lock, so
 * processes starting together migrate once), checks the encryption key, and returns the store.
 * @throws {EncryptionKeyError} when no key is configured, or the database was written with another.
 * @example const store = await openPgStore('postgres://127.0.0.1/switchboard', { encryptionKey });
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  if (options.encryptionKey === undefined) {
    throw new EncryptionKeyError(
      'SWITCHBOARD_ENCRYPTION_KEY is required with PostgreSQL: every server process must share the key (make one with `openssl rand -base64 32`)',
    );
  }
  const cipher = new FieldCipher(parseEncryptionKey(options.encryptionKey));
  const pool = openPgPool(url, {
    ...(options.poolSize === undefined ? {} : { max: options.poolSize }),
    ...(options.namedStatements === undefined ? {} : { namedStatements: options.namedStatements }),
    ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}),
  });
  try {
    await migratePg(pool);
    await checkEncryptionKey(createPgOrm(pool), cipher);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PgStore(pool, cipher);
}
