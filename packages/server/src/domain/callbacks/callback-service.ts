import type {
  CallbackDeliveryList,
  CallbackDeliveryQuery,
  CallbackSecret,
} from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { CallbackSecretRecord } from '../../store/callback-secret-repository';
import type { Store } from '../../store/store';
import { deliveryPage, deliveryPageQuery } from '../webhooks/delivery-log';
import { generateWebhookSecret } from '../webhooks/webhook-secret';
import { toCallbackDeliveryView } from './callback-delivery-view';

function toSecretView(record: CallbackSecretRecord): CallbackSecret {
  return { secret: record.secret, createdAt: record.createdAt.toISOString() };
}

/**
 * Per-message `callbackUrl` deliveries: each customer's signing secret (made on first use, seeded
 * from its oldest active webhook's secret so receivers that verified callbacks with it before keep
 * working; rotatable) and the log of their attempts.
 */
export class CallbackService {
  /** The service over the store and the clock. */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** The customer's callback signing secret, made now when it has none. */
  async secret(customerId: string): Promise<CallbackSecret> {
    return toSecretView(await this.#secretRecord(customerId));
  }

  /** The HMAC key a callback delivery of the customer is signed with. */
  async signingKey(customerId: string): Promise<string> {
    return (await this.#secretRecord(customerId)).secret;
  }

  /** A new secret for the customer; the old one stops signing at once (retries included). */
  async rotate(customerId: string): Promise<CallbackSecret> {
    const record = { secret: generateWebhookSecret(), createdAt: new Date(this.clock.now()) };
    await this.store.callbackSecrets.replace(customerId, record);
    return toSecretView(record);
  }

  /**
   * A page of the customer's callback delivery attempts, newest first.
   * @throws {DomainError} VALIDATION_ERROR for a cursor this log did not return.
   */
  async listDeliveries(
    customerId: string,
    query: CallbackDeliveryQuery,
  ): Promise<CallbackDeliveryList> {
    const rows = await this.store.deliveries.listCallbacks(customerId, deliveryPageQuery(query));
    return deliveryPage(rows, query.limit, toCallbackDeliveryView);
  }

  async #secretRecord(customerId: string): Promise<CallbackSecretRecord> {
    const existing = await this.store.callbackSecrets.find(customerId);
    if (existing) return existing;
    const webhook = await this.store.webhooks.findOldestActive(customerId);
    return this.store.callbackSecrets.findOrCreate(customerId, {
      secret: webhook?.secret ?? generateWebhookSecret(),
      createdAt: new Date(this.clock.now()),
    });
  }
}
