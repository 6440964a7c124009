import type { FieldCipher } from '../../crypto/field-cipher';
import { SqlContactErasureRepository } from '../sql-contact-erasure-repository';
import { SqlRetentionRepository } from '../sql-retention-repository';
import { SqlSendPolicyRepository } from '../sql-send-policy-repository';
import type { Repositories } from '../store';
import type { SqliteExecutor } from './executor';
import { SqliteApiKeyRepository } from './sqlite-api-key-repository';
import { SqliteCallbackSecretRepository } from './sqlite-callback-secret-repository';
import { SqliteCapabilityCacheRepository } from './sqlite-capability-cache-repository';
import { SqliteConversationRepository } from './sqlite-conversation-repository';
import { SqliteCustomerRepository } from './sqlite-customer-repository';
import { SqliteDeliveryRepository } from './sqlite-delivery-repository';
import { SqliteEventRepository } from './sqlite-event-repository';
import { SqliteFaceTimeCallRepository } from './sqlite-facetime-call-repository';
import { SqliteInstanceRepository } from './sqlite-instance-repository';
import { SqliteMediaRenditionRepository } from './sqlite-media-rendition-repository';
import { SqliteMessageAttemptRepository } from './sqlite-message-attempt-repository';
import { SqliteMessagePartRepository } from './sqlite-message-part-repository';
import { SqliteMessageReactionRepository } from './sqlite-message-reaction-repository';
import { SqliteMessageReceiptRepository } from './sqlite-message-receipt-repository';
import { SqliteMessageRepository } from './sqlite-message-repository';
import { SqliteNumberRepository } from './sqlite-number-repository';
import { SqliteOptOutRepository } from './sqlite-opt-out-repository';
import { SqliteProviderEventReceiptRepository } from './sqlite-provider-event-receipt-repository';
import { SqliteProviderLeaseRepository } from './sqlite-provider-lease-repository';
import { SqliteProviderStateRepository } from './sqlite-provider-state-repository';
import { SqliteRoutingStepRepository } from './sqlite-routing-step-repository';
import { SqliteServerSecretRepository } from './sqlite-server-secret-repository';
import { SqliteSignupCodeRepository } from './sqlite-signup-code-repository';
import { sqliteSqlSession } from './sqlite-sql-session';
import { SqliteStoredAttachmentRepository } from './sqlite-stored-attachment-repository';
import { SqliteUnroutedInboundRepository } from './sqlite-unrouted-inbound-repository';
import { SqliteWebhookRepository } from './sqlite-webhook-repository';
import { SqliteWhatsAppSessionRepository } from './sqlite-whatsapp-session-repository';

/**
 * The SQLite repositories over one executor, each made the first time it is used. Every
 * transaction scope makes a set of its own and touches a few of them: making all 25 up front and
 * copying them into the unit of work was about an eighth of what the server allocated under load.
 */
export class SqliteRepositories implements Repositories {
  readonly #run: SqliteExecutor;
  readonly #cipher: FieldCipher;
  #customers: SqliteCustomerRepository | undefined;
  #apiKeys: SqliteApiKeyRepository | undefined;
  #instances: SqliteInstanceRepository | undefined;
  #numbers: SqliteNumberRepository | undefined;
  #messages: SqliteMessageRepository | undefined;
  #messageAttempts: SqliteMessageAttemptRepository | undefined;
  #messageParts: SqliteMessagePartRepository | undefined;
  #routingSteps: SqliteRoutingStepRepository | undefined;
  #messageReceipts: SqliteMessageReceiptRepository | undefined;
  #messageReactions: SqliteMessageReactionRepository | undefined;
  #capabilityCache: SqliteCapabilityCacheRepository | undefined;
  #providerState: SqliteProviderStateRepository | undefined;
  #providerLeases: SqliteProviderLeaseRepository | undefined;
  #events: SqliteEventRepository | undefined;
  #webhooks: SqliteWebhookRepository | undefined;
  #deliveries: SqliteDeliveryRepository | undefined;
  #conversations: SqliteConversationRepository | undefined;
  #whatsappSessions: SqliteWhatsAppSessionRepository | undefined;
  #storedAttachments: SqliteStoredAttachmentRepository | undefined;
  #mediaRenditions: SqliteMediaRenditionRepository | undefined;
  #signupCodes: SqliteSignupCodeRepository | undefined;
  #faceTimeCalls: SqliteFaceTimeCallRepository | undefined;
  #serverSecrets: SqliteServerSecretRepository | undefined;
  #callbackSecrets: SqliteCallbackSecretRepository | undefined;
  #providerEventReceipts: SqliteProviderEventReceiptRepository | undefined;
  #optOuts: SqliteOptOutRepository | undefined;
  #unroutedInbound: SqliteUnroutedInboundRepository | undefined;
  #contactErasures: SqlContactErasureRepository | undefined;
  #retention: SqlRetentionRepository | undefined;
  #sendPolicies: SqlSendPolicyRepository | undefined;

  /** Repositories whose statements go through `run`; `cipher` seals and opens their secrets. */
  constructor(run: SqliteExecutor, cipher: FieldCipher) {
    this.#run = run;
    this.#cipher = cipher;
  }

  get customers(): SqliteCustomerRepository {
    this.#customers ??= new SqliteCustomerRepository(this.#run);
    return this.#customers;
  }

  get apiKeys(): SqliteApiKeyRepository {
    this.#apiKeys ??= new SqliteApiKeyRepository(this.#run);
    return this.#apiKeys;
  }

  get instances(): SqliteInstanceRepository {
    this.#instances ??= new SqliteInstanceRepository(this.#run, this.#cipher);
    return this.#instances;
  }

  get numbers(): SqliteNumberRepository {
    this.#numbers ??= new SqliteNumberRepository(this.#run);
    return this.#numbers;
  }

  get messages(): SqliteMessageRepository {
    this.#messages ??= new SqliteMessageRepository(this.#run);
    return this.#messages;
  }

  get messageAttempts(): SqliteMessageAttemptRepository {
    this.#messageAttempts ??= new SqliteMessageAttemptRepository(this.#run);
    return this.#messageAttempts;
  }

  get messageParts(): SqliteMessagePartRepository {
    this.#messageParts ??= new SqliteMessagePartRepository(this.#run);
    return this.#messageParts;
  }

  get routingSteps(): SqliteRoutingStepRepository {
    this.#routingSteps ??= new SqliteRoutingStepRepository(this.#run);
    return this.#routingSteps;
  }

  get messageReceipts(): SqliteMessageReceiptRepository {
    this.#messageReceipts ??= new SqliteMessageReceiptRepository(this.#run);
    return this.#messageReceipts;
  }

  get messageReactions(): SqliteMessageReactionRepository {
    this.#messageReactions ??= new SqliteMessageReactionRepository(this.#run);
    return this.#messageReactions;
  }

  get capabilityCache(): SqliteCapabilityCacheRepository {
    this.#capabilityCache ??= new SqliteCapabilityCacheRepository(this.#run);
    return this.#capabilityCache;
  }

  get providerState(): SqliteProviderStateRepository {
    this.#providerState ??= new SqliteProviderStateRepository(this.#run, this.#cipher);
    return this.#providerState;
  }

  get providerLeases(): SqliteProviderLeaseRepository {
    this.#providerLeases ??= new SqliteProviderLeaseRepository(this.#run);
    return this.#providerLeases;
  }

  get events(): SqliteEventRepository {
    this.#events ??= new SqliteEventRepository(this.#run);
    return this.#events;
  }

  get webhooks(): SqliteWebhookRepository {
    this.#webhooks ??= new SqliteWebhookRepository(this.#run, this.#cipher);
    return this.#webhooks;
  }

  get deliveries(): SqliteDeliveryRepository {
    this.#deliveries ??= new SqliteDeliveryRepository(this.#run, this.#cipher);
    return this.#deliveries;
  }

  get conversations(): SqliteConversationRepository {
    this.#conversations ??= new SqliteConversationRepository(this.#run);
    return this.#conversations;
  }

  get whatsappSessions(): SqliteWhatsAppSessionRepository {
    this.#whatsappSessions ??= new SqliteWhatsAppSessionRepository(this.#run);
    return this.#whatsappSessions;
  }

  get storedAttachments(): SqliteStoredAttachmentRepository {
    this.#storedAttachments ??= new SqliteStoredAttachmentRepository(this.#run);
    return this.#storedAttachments;
  }

  get mediaRenditions(): SqliteMediaRenditionRepository {
    this.#mediaRenditions ??= new SqliteMediaRenditionRepository(this.#run);
    return this.#mediaRenditions;
  }

  get signupCodes(): SqliteSignupCodeRepository {
    this.#signupCodes ??= new SqliteSignupCodeRepository(this.#run);
    return this.#signupCodes;
  }

  get faceTimeCalls(): SqliteFaceTimeCallRepository {
    this.#faceTimeCalls ??= new SqliteFaceTimeCallRepository(this.#run);
    return this.#faceTimeCalls;
  }

  get serverSecrets(): SqliteServerSecretRepository {
    this.#serverSecrets ??= new SqliteServerSecretRepository(this.#run, this.#cipher);
    return this.#serverSecrets;
  }

  get callbackSecrets(): SqliteCallbackSecretRepository {
    this.#callbackSecrets ??= new SqliteCallbackSecretRepository(this.#run, this.#cipher);
    return this.#callbackSecrets;
  }

  get providerEventReceipts(): SqliteProviderEventReceiptRepository {
    this.#providerEventReceipts ??= new SqliteProviderEventReceiptRepository(this.#run);
    return this.#providerEventReceipts;
  }

  get optOuts(): SqliteOptOutRepository {
    this.#optOuts ??= new SqliteOptOutRepository(this.#run);
    return this.#optOuts;
  }

  get unroutedInbound(): SqliteUnroutedInboundRepository {
    this.#unroutedInbound ??= new SqliteUnroutedInboundRepository(this.#run, this.#cipher);
    return this.#unroutedInbound;
  }

  get contactErasures(): SqlContactErasureRepository {
    this.#contactErasures ??= new SqlContactErasureRepository(
      sqliteSqlSession(this.#run),
      (value) => this.#cipher.decrypt(value),
    );
    return this.#contactErasures;
  }

  get retention(): SqlRetentionRepository {
    this.#retention ??= new SqlRetentionRepository(sqliteSqlSession(this.#run));
    return this.#retention;
  }

  get sendPolicies(): SqlSendPolicyRepository {
    this.#sendPolicies ??= new SqlSendPolicyRepository(sqliteSqlSession(this.#run));
    return this.#sendPolicies;
  }
}
