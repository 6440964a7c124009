import type { Agent } from 'undici';
import type { Clock } from '../clock';
import { newUuid } from '../ids';
import type { ClaimedDelivery, DeliveryResult } from '../store/delivery-repository';
import type { Store } from '../store/store';
import type { Worker } from '../workers';
import { planAttempt } from './attempt-plan';
import { type DeliveryOutcome, deliver } from './delivery-client';
import { DeliveryQueue, DeliveryQueueClosedError } from './delivery-queue';
import { type RetrySchedule, spreadOverdue } from './retry-schedule';
import { createSafeDispatcher, type HostResolver } from './safe-dispatcher';
import { assertSafeUrl, UnsafeUrlError } from './url-guard';
import { buildDeliveryHeaders } from './webhook-signer';

/** The log lines the dispatcher writes (a pino logger fits). */
export interface DispatcherLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Options of {@link WebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** The store holding the delivery queue. */
  store: Store;
  /** The time source of due times, leases and `X-Timestamp`. */
  clock: Clock;
  /** Delays before each retry (`WEBHOOK_RETRY_SCHEDULE`). */
  retrySchedule: RetrySchedule;
  /** Deadline of one attempt (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Allow http and private addresses (`WEBHOOK_ALLOW_PRIVATE_URLS`). */
  allowPrivate: boolean;
  /** Most attempts in flight at once (`WEBHOOK_CONCURRENCY`). */
  concurrency: number;
  /** Fallback poll interval (`WEBHOOK_POLL_INTERVAL_MS`); commits wake the dispatcher at once. */
  pollIntervalMs: number;
  /** DNS resolver of the connect-time address check (tests script rebinding with it). */
  resolver?: HostResolver;
  /** Where to log deactivations and failures. */
  logger?: DispatcherLogger;
  /** Window over which an overdue backlog is released at start. Default 5 minutes. */
  overdueWindowMs?: number;
  /** Consecutive exhausted chains that deactivate a webhook. Default 3 (spec). */
  deactivateAfter?: number;
}

/** The outcome of one attempt, as the synchronous test endpoint reports it. */
export interface AttemptReport {
  /** True when the receiver answered 2xx. */
  delivered: boolean;
  /** The receiver's status, when it answered. */
  statusCode: number | null;
  /** How long the attempt took. */
  durationMs: number;
  /** Why it failed; null when delivered. */
  error: string | null;
}

/** Most attempts of one receiver a poll puts in the queue: the fair queue runs 2 at a time. */
const PER_TARGET_BACKLOG = 8;
/** Most attempts one poll takes. */
const POLL_BATCH = 200;
/** Slack of a lease beyond the attempt deadline, so a slow commit never lets a lease lapse. */
const LEASE_SLACK_MS = 30_000;

const silentLogger: DispatcherLogger = { info() {}, warn() {}, error() {} };

/**
 * The durable webhook dispatcher: polls the delivery queue in the database (and wakes at once
 * when a commit queued deliveries), leases each due attempt so that two processes never make the
 * same attempt and a crashed one's attempts are made again when the lease runs out, delivers it
 * through the fair {@link DeliveryQueue} and the safe dispatcher (connect-time address check),
 * signs each attempt afresh with the webhook's current secret, records it, schedules the next
 * attempt of the chain, and deactivates a webhook after three consecutive exhausted chains.
 */
export class WebhookDispatcher implements Worker {
  readonly name = 'webhook-dispatcher';
  /** This dispatcher's lease owner id. */
  readonly owner = `dispatcher_${newUuid()}`;
  readonly #options: WebhookDispatcherOptions;
  #log: DispatcherLogger;
  readonly #queue: DeliveryQueue;
  readonly #agent: Agent;
  readonly #leaseMs: number;
  /** Attempts handed to the queue and not settled yet, so a poll does not queue them twice. */
  readonly #queued = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #pollAgain = false;
  #started = false;
  #stopped = false;

  /** Creates the dispatcher; nothing happens until {@link start}. */
  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
    this.#log = options.logger ?? silentLogger;
    this.#queue = new DeliveryQueue({ concurrency: options.concurrency });
    this.#agent = createSafeDispatcher({
      allowPrivate: options.allowPrivate,
      connectTimeoutMs: options.timeoutMs,
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
    this.#leaseMs = options.timeoutMs + LEASE_SLACK_MS;
  }

  /**
   * Starts polling. An overdue backlog (after an outage) is first spread over the overdue window,
   * oldest first, instead of being fired in one burst.
   */
  async start(logger?: DispatcherLogger): Promise<void> {
    if (logger) this.#log = logger;
    if (this.#started) return;
    this.#started = true;
    await this.#spreadOverdue();
    this.wake();
  }

  /** Looks for due attempts now (coalesced with a poll already running). */
  wake(): void {
    if (!this.#started || this.#stopped) return;
    if (this.#polling) {
      this.#pollAgain = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#polling = this.#poll()
      .catch((error: unknown) => this.#log.error({ err: error }, 'webhook poll failed'))
      .finally(() => {
        this.#polling = undefined;
        if (this.#stopped) return;
        if (this.#pollAgain) {
          this.#pollAgain = false;
          this.wake();
          return;
        }
        this.#timer = setTimeout(() => this.wake(), this.#options.pollIntervalMs);
        this.#timer.unref();
      });
  }

  /**
   * Makes a pending attempt at once, bypassing the queue and its due time, and reports how it
   * went; undefined when the attempt is no longer pending or another worker holds it.
   */
  async deliverNow(deliveryId: string): Promise<AttemptReport | undefined> {
    const now = this.#options.clock.now();
    const claimed = await this.#options.store.deliveries.claim(
      deliveryId,
      this.owner,
      new Date(now),
      new Date(now + this.#leaseMs),
      { ignoreDueTime: true },
    );
    return claimed && this.#attempt(claimed);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#polling;
    // Attempts not started stay pending in the database: the next start makes them.
    await this.#queue.close();
    await this.#agent.close();
  }

  async #spreadOverdue(): Promise<void> {
    const { store, clock } = this.#options;
    const now = clock.now();
    const overdue = await store.deliveries.listOverdue(new Date(now));
    const spread = spreadOverdue(overdue, {
      now,
      windowMs: this.#options.overdueWindowMs ?? 5 * 60_000,
    });
    for (const { item, runAt } of spread) {
      if (runAt !== item.dueAt) await store.deliveries.reschedule(item.id, new Date(runAt));
    }
    if (overdue.length > 1) {
      this.#log.info({ overdue: overdue.length }, 'spreading overdue webhook deliveries');
    }
  }

  async #poll(): Promise<void> {
    const { store, clock } = this.#options;
    const due = await store.deliveries.listDue(
      new Date(clock.now()),
      PER_TARGET_BACKLOG,
      POLL_BATCH,
    );
    for (const { id, targetKey } of due) {
      if (this.#queued.has(id) || this.#queue.isFull || this.#stopped) continue;
      this.#queued.add(id);
      this.#queue
        .enqueue(targetKey, () => this.#claimAndAttempt(id))
        .catch((error: unknown) => {
          if (!(error instanceof DeliveryQueueClosedError)) {
            this.#log.error({ err: error, deliveryId: id }, 'webhook delivery failed');
          }
        })
        .finally(() => this.#queued.delete(id));
    }
  }

  async #claimAndAttempt(id: string): Promise<void> {
    const now = this.#options.clock.now();
    const claimed = await this.#options.store.deliveries.claim(
      id,
      this.owner,
      new Date(now),
      new Date(now + this.#leaseMs),
    );
    if (claimed) await this.#attempt(claimed);
  }

  /** Makes one claimed attempt and records it. */
  async #attempt(claimed: ClaimedDelivery): Promise<AttemptReport> {
    const { delivery } = claimed;
    const target = await this.#target(claimed);
    if ('dropped' in target) {
      const result: DeliveryResult = {
        status: 'failed',
        statusCode: null,
        durationMs: null,
        error: target.dropped,
        attemptedAt: null,
        nextAttemptAt: null,
      };
      await this.#options.store.deliveries.complete(delivery.id, this.owner, result);
      return { delivered: false, statusCode: null, durationMs: 0, error: target.dropped };
    }

    const attemptedAt = this.#options.clock.now();
    const outcome = await this.#send(claimed, target, attemptedAt);
    const plan = planAttempt({
      delivery,
      outcome,
      attemptedAt: new Date(attemptedAt),
      now: this.#options.clock.now(),
      schedule: this.#options.retrySchedule,
    });
    await this.#options.store.transaction(async (tx) => {
      // A lost lease means another worker took the attempt over; its record wins.
      if (!(await tx.deliveries.complete(delivery.id, this.owner, plan.result))) return;
      if (plan.followUp) await tx.deliveries.insertMany([plan.followUp]);
      if (delivery.webhookId === null) return;
      if (plan.streak === 'reset') await tx.webhooks.resetExhaustedChains(delivery.webhookId);
      if (plan.streak === 'exhausted') {
        const { streak, deactivated } = await tx.webhooks.recordExhaustedChain(
          delivery.webhookId,
          this.#options.deactivateAfter ?? 3,
          new Date(this.#options.clock.now()),
        );
        if (deactivated) {
          this.#log.warn(
            { webhookId: delivery.webhookId, exhaustedChains: streak },
            'webhook deactivated after consecutive exhausted retry chains',
          );
        }
      }
    });
    return {
      delivered: outcome.kind === 'delivered',
      statusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      error: outcome.error,
    };
  }

  /** Where and with which secret to send, or why the attempt is dropped without a request. */
  async #target(
    claimed: ClaimedDelivery,
  ): Promise<{ url: string; secret: string } | { dropped: string }> {
    const { delivery, webhook } = claimed;
    if (claimed.customerDeleted) return { dropped: 'the customer was deleted; delivery dropped' };
    if (delivery.webhookId !== null) {
      if (webhook === null) return { dropped: 'the webhook was deleted; delivery dropped' };
      // Operators' tests and redeliveries reach inactive webhooks on purpose; events do not.
      if (!webhook.active && (delivery.trigger === 'event' || delivery.trigger === 'retry')) {
        return { dropped: 'the webhook is inactive; delivery cancelled' };
      }
      return { url: webhook.url, secret: webhook.secret };
    }
    // A callbackUrl has no secret of its own: it is signed with the customer's main (oldest
    // active) webhook secret, the one the legacy endpoints manage.
    const signer = await this.#options.store.webhooks.findOldestActive(delivery.customerId);
    if (signer === undefined) {
      return {
        dropped:
          'no active webhook whose secret could sign this callbackUrl delivery; register a webhook',
      };
    }
    return { url: delivery.targetUrl ?? '', secret: signer.secret };
  }

  async #send(
    claimed: ClaimedDelivery,
    target: { url: string; secret: string },
    attemptedAt: number,
  ): Promise<DeliveryOutcome> {
    try {
      // Checked again at send time: the configuration may have changed since the URL was stored.
      assertSafeUrl(target.url, { allowPrivate: this.#options.allowPrivate });
    } catch (error) {
      if (!(error instanceof UnsafeUrlError)) throw error;
      return {
        kind: 'retryable',
        statusCode: null,
        durationMs: 0,
        error: error.message,
        retryAfter: null,
        responseBody: null,
      };
    }
    const { delivery, payload } = claimed;
    return deliver({
      url: target.url,
      headers: buildDeliveryHeaders({
        secret: target.secret,
        body: payload,
        timestamp: attemptedAt,
        correlationId: claimed.correlationId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
      }),
      body: payload,
      timeoutMs: this.#options.timeoutMs,
      dispatcher: this.#agent,
    });
  }
}
