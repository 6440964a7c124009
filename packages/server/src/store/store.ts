import type { ApiKeyRepository } from './api-key-repository';
import type { CallbackSecretRepository } from './callback-secret-repository';
import type { CapabilityCacheRepository } from './capability-cache-repository';
import type { ClusterChannel } from './cluster-channel';
import type { ContactErasureRepository } from './contact-erasure-repository';
import type { ConversationRepository } from './conversation-repository';
import type { CustomerRepository } from './customer-repository';
import type { DeliveryRepository } from './delivery-repository';
import type { EventRepository } from './event-repository';
import type { FaceTimeCallRepository } from './facetime-call-repository';
import type { InstanceRepository } from './instance-repository';
import type { MediaRenditionRepository } from './media-rendition-repository';
import type { MessageAttemptRepository } from './message-attempt-repository';
import type { MessagePartRepository } from './message-part-repository';
import type { MessageReactionRepository } from './message-reaction-repository';
import type { MessageReceiptRepository } from './message-receipt-repository';
import type { MessageRepository } from './message-repository';
import type { NumberRepository } from './number-repository';
import type { OptOutRepository } from './opt-out-repository';
import type { ProviderEventReceiptRepository } from './provider-event-receipt-repository';
import type { ProviderLeaseRepository } from './provider-lease-repository';
import type { ProviderStateRepository } from './provider-state-repository';
import type { RetentionRepository } from './retention-repository';
import type { RoutingStepRepository } from './routing-step-repository';
import type { SendPolicyRepository } from './send-policy-repository';
import type { SenderPaceBook } from './sender-pace-book';
import type { ServerSecretRepository } from './server-secret-repository';
import type { SignupCodeRepository } from './signup-code-repository';
import type { StoredAttachmentRepository } from './stored-attachment-repository';
import type { UnroutedInboundRepository } from './unrouted-inbound-repository';
import type { WebhookRepository } from './webhook-repository';
import type { WhatsAppSessionRepository } from './whatsapp-session-repository';

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
  /** Messages, outbound and inbound. */
  readonly messages: MessageRepository;
  /** Delivery attempts of messages (how provider status updates find their message). */
  readonly messageAttempts: MessageAttemptRepository;
  /** Per-member receipts of group messages. */
  readonly messageReceipts: MessageReceiptRepository;
  /** The upstream parts of multi-part sends. */
  readonly messageParts: MessagePartRepository;
  /** The routing traces of messages. */
  readonly routingSteps: RoutingStepRepository;
  /** Reactions on messages, one per message per sender. */
  readonly messageReactions: MessageReactionRepository;
  /** Cached availability answers of providers. */
  readonly capabilityCache: CapabilityCacheRepository;
  /** Durable key-value state of provider instances. */
  readonly providerState: ProviderStateRepository;
  /** Leases of provider instances (one process per WhatsApp socket). */
  readonly providerLeases: ProviderLeaseRepository;
  /** The event log (outbox). */
  readonly events: EventRepository;
  /** Webhook registrations. */
  readonly webhooks: WebhookRepository;
  /** Webhook delivery attempts and the durable delivery queue. */
  readonly deliveries: DeliveryRepository;
  /** Chats (conversations) and their participants. */
  readonly conversations: ConversationRepository;
  /** WhatsApp session state per owned number. */
  readonly whatsappSessions: WhatsAppSessionRepository;
  /** Bytes of inbound attachments. */
  readonly storedAttachments: StoredAttachmentRepository;
  /** The conversion cache of outbound media. */
  readonly mediaRenditions: MediaRenditionRepository;
  /** Verification codes kept for the signup-codes endpoint. */
  readonly signupCodes: SignupCodeRepository;
  /** FaceTime calls seen on customers' numbers. */
  readonly faceTimeCalls: FaceTimeCallRepository;
  /** Server-wide generated secrets. */
  readonly serverSecrets: ServerSecretRepository;
  /** Each customer's signing secret of `callbackUrl` deliveries. */
  readonly callbackSecrets: CallbackSecretRepository;
  /** Upstream events already taken, per instance (de-duplication of the ingress). */
  readonly providerEventReceipts: ProviderEventReceiptRepository;
  /** The opt-out ledger: recipients who texted STOP to a customer's numbers. */
  readonly optOuts: OptOutRepository;
  /** Inbound items no customer could receive, kept for delivery or the operator. */
  readonly unroutedInbound: UnroutedInboundRepository;
  /** Forgetting a contact, and the record of each erasure. */
  readonly contactErasures: ContactErasureRepository;
  /** Pruning by age and the per-customer retention periods. */
  readonly retention: RetentionRepository;
  /** Send policies of numbers and instances, their daily counts and restrictions. */
  readonly sendPolicies: SendPolicyRepository;
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
  /**
   * Runs `callback` once the outermost transaction has committed (at once outside a
   * transaction); a rollback, of this scope or an enclosing one, drops it. This is how the world
   * outside the database (the event bus, the webhook dispatcher) learns of committed changes.
   * Errors thrown by `callback` are reported as process warnings, never to the committer.
   */
  afterCommit(callback: () => void): void;
}

/**
 * The persistence boundary: the domain talks to these repositories only, never to a database
 * driver, so another backend (PostgreSQL) can implement the same interface.
 */
export interface Store extends UnitOfWork {
  /** Which backend this is. */
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Runs `work`, each of whose repository calls is atomic on its own, where its commits cost
   * least: in a transaction on SQLite, so its writes join the moment's group commit instead of
   * committing one by one; as it is on PostgreSQL, where each statement commits by itself and a
   * transaction would only add two round trips (`BEGIN`, `COMMIT`). Never for work that must
   * commit all or nothing: that takes {@link UnitOfWork.transaction}.
   */
  grouped<T>(work: (repositories: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * The departure slots of sender numbers, shared by every process on the database: present where
   * several processes share it (PostgreSQL), absent on SQLite (one process paces in memory).
   */
  readonly senderPace?: SenderPaceBook;
  /**
   * A channel `name` (a plain identifier) between the processes sharing the database
   * (PostgreSQL's `LISTEN`/`NOTIFY`); absent on SQLite, which one process uses.
   */
  clusterChannel?(name: string): ClusterChannel;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /** Closes the database once pending operations finished. */
  close(): Promise<void>;
  /** Where the key of the secrets at rest comes from, and its fingerprint. */
  readonly encryption: StoreEncryption;
  /**
   * Re-encrypts every secret at rest under `newKey`, all or nothing, and answers how many values
   * were rewritten. Close the store afterwards and reopen it with the new key; no other process
   * may use the database meanwhile.
   */
  reencryptSecrets(newKey: Uint8Array): Promise<number>;
}

/** Where a store's encryption key comes from. */
export interface StoreEncryption {
  /** `environment` (SWITCHBOARD_ENCRYPTION_KEY), `file` (next to the database) or `memory`. */
  source: 'environment' | 'file' | 'memory';
  /** The key file, when the key lives in one. */
  path?: string;
  /** The key's fingerprint, as written into every encrypted value. */
  keyId: string;
}
