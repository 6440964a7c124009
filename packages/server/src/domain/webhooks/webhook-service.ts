import type {
  CreatedWebhook,
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryQuery,
  WebhookTestResult,
  WebhookWithSecret,
} from '@switchboard/contract';
import type { Clock } from '../../clock';
import { OutboundUrlPolicy } from '../../egress/outbound-url';
import type { EventService } from '../../events/event-service';
import { newUuid } from '../../ids';
import type { UnitOfWork } from '../../store/store';
import {
  DuplicateWebhookError,
  type WebhookChanges,
  type WebhookRecord,
} from '../../store/webhook-repository';
import { pendingDelivery } from '../../webhooks/pending-delivery';
import type { AttemptReport } from '../../webhooks/webhook-dispatcher';
import { DomainError } from '../domain-error';
import { requireUrl } from '../safe-url';
import { deliveryPage, deliveryPageQuery } from './delivery-log';
import { generateWebhookSecret } from './webhook-secret';
import { toDeliveryView, toWebhookView } from './webhook-views';

/** The part of the dispatcher the webhook operations need. */
export interface DeliveryDispatch {
  /** Makes a pending attempt at once and reports it (the synchronous test). */
  deliverNow(deliveryId: string): Promise<AttemptReport | undefined>;
  /** Looks for due attempts now. */
  wake(): void;
}

/** Options of {@link WebhookService}. */
export interface WebhookServiceOptions {
  /** Admit http and private addresses (`WEBHOOK_ALLOW_PRIVATE_URLS`). */
  allowPrivateUrls: boolean;
  /**
   * How long a test attempt waits for its own request before the dispatcher may make it
   * (only if the request's process died first). Longer than an attempt can take.
   */
  testHoldMs: number;
}

function webhookNotFound(id: string): DomainError {
  return new DomainError('WEBHOOK_NOT_FOUND', `No webhook with id ${id}`);
}

function webhookNotConfigured(): DomainError {
  return new DomainError(
    'WEBHOOK_NOT_CONFIGURED',
    'No active webhook is registered; register one with POST /v1/webhooks',
  );
}

function duplicate(url: string): DomainError {
  return new DomainError(
    'WEBHOOK_DUPLICATE',
    `An active webhook already receives this event set at ${url}`,
  );
}

/** Runs a write, answering the store's uniqueness violation as WEBHOOK_DUPLICATE. */
async function guardDuplicate<T>(url: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DuplicateWebhookError) throw duplicate(url);
    throw error;
  }
}

/**
 * Webhook registrations (the seven endpoints, the deprecated single-webhook ones and the delivery
 * log). Every operation is scoped to one customer; a foreign id is "not found".
 */
export class WebhookService {
  /** Creates the service. */
  constructor(
    private readonly store: UnitOfWork,
    private readonly clock: Clock,
    private readonly events: EventService,
    private readonly dispatch: DeliveryDispatch,
    private readonly options: WebhookServiceOptions,
  ) {}

  /**
   * Registers a webhook; the secret is in the answer only when it was generated.
   * @throws {DomainError} VALIDATION_ERROR for an unsafe URL; WEBHOOK_DUPLICATE when an active
   * webhook has the same URL and event set.
   */
  create(customerId: string, input: CreateWebhookRequest): Promise<CreatedWebhook> {
    return this.store.transaction((tx) => this.#create(tx, customerId, input));
  }

  /** Every webhook of the customer, oldest first. */
  async list(customerId: string): Promise<Webhook[]> {
    return (await this.store.webhooks.listByCustomer(customerId)).map(toWebhookView);
  }

  /**
   * One webhook.
   * @throws {DomainError} WEBHOOK_NOT_FOUND when missing or another customer's.
   */
  async get(customerId: string, id: string): Promise<Webhook> {
    return toWebhookView(await this.#find(this.store, customerId, id));
  }

  /**
   * Changes any of url, events, secret, name and active. `active: true` also clears the
   * exhausted-chain streak.
   * @throws {DomainError} WEBHOOK_NOT_FOUND, VALIDATION_ERROR (unsafe URL), WEBHOOK_DUPLICATE.
   */
  update(customerId: string, id: string, patch: UpdateWebhookRequest): Promise<Webhook> {
    const url =
      patch.url === undefined ? undefined : requireUrl(this.#urlPolicy(), patch.url, 'url');
    return this.store.transaction(async (tx) => {
      const current = await this.#find(tx, customerId, id);
      const next = {
        url: url ?? current.url,
        events: patch.events ?? current.events,
        active: patch.active ?? current.active,
      };
      if (
        next.active &&
        (await tx.webhooks.findActiveDuplicate(customerId, next.url, next.events, id))
      ) {
        throw duplicate(next.url);
      }
      const changes: WebhookChanges = { updatedAt: new Date(this.clock.now()) };
      if (url !== undefined) changes.url = url;
      if (patch.events !== undefined) changes.events = patch.events;
      if (patch.secret !== undefined) changes.secret = patch.secret;
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.active !== undefined) changes.active = patch.active;
      if (patch.active === true) changes.exhaustedChains = 0;
      await guardDuplicate(next.url, () => tx.webhooks.update(customerId, id, changes));
      return toWebhookView(await this.#find(tx, customerId, id));
    });
  }

  /**
   * Deletes a webhook; its pending attempts and delivery log go with it.
   * @throws {DomainError} WEBHOOK_NOT_FOUND.
   */
  async delete(customerId: string, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.store.webhooks.delete(customerId, id))) throw webhookNotFound(id);
    return { id, deleted: true };
  }

  /**
   * Replaces the signing secret; the old one stops signing at once, retries included.
   * @throws {DomainError} WEBHOOK_NOT_FOUND.
   */
  rotateSecret(customerId: string, id: string): Promise<WebhookWithSecret> {
    return this.store.transaction(async (tx) => {
      await this.#find(tx, customerId, id);
      return this.#rotate(tx, customerId, id);
    });
  }

  /**
   * Sends a synthetic `webhook.test` event to the webhook while the caller waits: one attempt,
   * no retries, also to an inactive webhook, recorded in the delivery log.
   * @throws {DomainError} WEBHOOK_NOT_FOUND.
   */
  async test(customerId: string, id: string, correlationId: string): Promise<WebhookTestResult> {
    const webhook = await this.#find(this.store, customerId, id);
    return this.#test(webhook, correlationId);
  }

  /**
   * A page of the webhook's delivery attempts, newest first.
   * @throws {DomainError} WEBHOOK_NOT_FOUND; VALIDATION_ERROR for a foreign cursor.
   */
  async listDeliveries(
    customerId: string,
    id: string,
    query: WebhookDeliveryQuery,
  ): Promise<WebhookDeliveryList> {
    await this.#find(this.store, customerId, id);
    const rows = await this.store.deliveries.listForWebhook(
      customerId,
      id,
      deliveryPageQuery(query),
    );
    return deliveryPage(rows, query.limit, (row) => toDeliveryView({ ...row, webhookId: id }));
  }

  /**
   * Queues one more attempt of a logged delivery's event: same event id and body, a fresh
   * signature with the current secret, no retries; works on inactive webhooks.
   * @throws {DomainError} WEBHOOK_NOT_FOUND; NOT_FOUND for an attempt not of this webhook.
   */
  async redeliver(customerId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const attempt = await this.store.transaction(async (tx) => {
      await this.#find(tx, customerId, id);
      const source = await tx.deliveries.findForWebhook(customerId, id, deliveryId);
      if (source === undefined) {
        throw new DomainError('NOT_FOUND', `No delivery ${deliveryId} on webhook ${id}`);
      }
      const now = new Date(this.clock.now());
      const record = pendingDelivery({
        customerId,
        webhookId: id,
        targetUrl: null,
        eventId: source.eventId,
        eventType: source.eventType,
        attempt: 1,
        trigger: 'redelivery',
        createdAt: now,
        nextAttemptAt: now,
      });
      await tx.deliveries.insertMany([record]);
      tx.afterCommit(() => this.dispatch.wake());
      return record;
    });
    return toDeliveryView({ ...attempt, webhookId: id });
  }

  /** Legacy GET: the oldest active webhook, or null. */
  async legacyGet(customerId: string): Promise<Webhook | null> {
    const webhook = await this.store.webhooks.findOldestActive(customerId);
    return webhook ? toWebhookView(webhook) : null;
  }

  /** Legacy PUT: deactivates every active webhook and registers one (never a duplicate). */
  legacyReplace(customerId: string, input: CreateWebhookRequest): Promise<CreatedWebhook> {
    return this.store.transaction(async (tx) => {
      await tx.webhooks.deactivateAll(customerId, new Date(this.clock.now()));
      return this.#create(tx, customerId, input);
    });
  }

  /**
   * Legacy DELETE: deactivates every active webhook (registrations and secrets kept).
   * @throws {DomainError} WEBHOOK_NOT_CONFIGURED when none is active.
   */
  async legacyDeactivateAll(customerId: string): Promise<{ deactivated: number }> {
    const deactivated = await this.store.webhooks.deactivateAll(
      customerId,
      new Date(this.clock.now()),
    );
    if (deactivated === 0) throw webhookNotConfigured();
    return { deactivated };
  }

  /**
   * Legacy test: tests the oldest active webhook.
   * @throws {DomainError} WEBHOOK_NOT_CONFIGURED when none is active.
   */
  async legacyTest(customerId: string, correlationId: string): Promise<WebhookTestResult> {
    const webhook = await this.store.webhooks.findOldestActive(customerId);
    if (webhook === undefined) throw webhookNotConfigured();
    return this.#test(webhook, correlationId);
  }

  /**
   * Legacy rotate-secret: rotates the oldest active webhook's secret.
   * @throws {DomainError} WEBHOOK_NOT_CONFIGURED when none is active.
   */
  legacyRotateSecret(customerId: string): Promise<WebhookWithSecret> {
    return this.store.transaction(async (tx) => {
      const webhook = await tx.webhooks.findOldestActive(customerId);
      if (webhook === undefined) throw webhookNotConfigured();
      return this.#rotate(tx, customerId, webhook.id);
    });
  }

  async #create(
    tx: UnitOfWork,
    customerId: string,
    input: CreateWebhookRequest,
  ): Promise<CreatedWebhook> {
    const url = requireUrl(this.#urlPolicy(), input.url, 'url');
    if (await tx.webhooks.findActiveDuplicate(customerId, url, input.events)) {
      throw duplicate(url);
    }
    const now = new Date(this.clock.now());
    const record: WebhookRecord = {
      id: newUuid(),
      customerId,
      name: input.name ?? null,
      url,
      events: input.events,
      secret: input.secret ?? generateWebhookSecret(),
      active: true,
      exhaustedChains: 0,
      createdAt: now,
      updatedAt: now,
    };
    await guardDuplicate(url, () => tx.webhooks.insert(record));
    const view = toWebhookView(record);
    // A caller-supplied secret is never echoed.
    return input.secret === undefined ? { ...view, secret: record.secret } : view;
  }

  async #rotate(tx: UnitOfWork, customerId: string, id: string): Promise<WebhookWithSecret> {
    const secret = generateWebhookSecret();
    await tx.webhooks.update(customerId, id, { secret, updatedAt: new Date(this.clock.now()) });
    return { ...toWebhookView(await this.#find(tx, customerId, id)), secret };
  }

  async #test(webhook: WebhookRecord, correlationId: string): Promise<WebhookTestResult> {
    const { event, deliveryId } = await this.store.transaction((tx) =>
      this.events.recordTest(tx, {
        customerId: webhook.customerId,
        webhookId: webhook.id,
        correlationId,
        holdMs: this.options.testHoldMs,
      }),
    );
    const report = (await this.dispatch.deliverNow(deliveryId)) ?? {
      delivered: false,
      statusCode: null,
      durationMs: 0,
      error: 'the test attempt was taken over by another worker; see the delivery log',
    };
    return { eventId: event.id, ...report };
  }

  /** The URL-safety policy of this server's configuration (`WEBHOOK_ALLOW_PRIVATE_URLS`). */
  #urlPolicy(): OutboundUrlPolicy {
    return new OutboundUrlPolicy({ allowPrivate: this.options.allowPrivateUrls });
  }

  async #find(repos: UnitOfWork, customerId: string, id: string): Promise<WebhookRecord> {
    const webhook = await repos.webhooks.findById(customerId, id);
    if (webhook === undefined) throw webhookNotFound(id);
    return webhook;
  }
}
