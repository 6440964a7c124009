import type { Clock } from '../clock';
import type { HostResolver } from '../egress/safe-dispatcher';
import { assertSafeUrl, UnsafeUrlError } from '../egress/url-guard';
import { newUuid } from '../ids';
import {
  type ClaimedDelivery,
  type DeliveryRecord,
  type DeliveryResult,
  deliveryTargetKey,
} from '../store/delivery-repository';
import { GroupedBatch } from '../store/grouped-batch';
import type { Store } from '../store/store';
import type { Worker } from '../workers';
import { type AttemptPlan, planAttempt } from './attempt-plan';
import { type DeliveryOutcome, unansweredOutcome } from './delivery-client';
import { DeliveryQueue, DeliveryQueueClosedError } from './delivery-queue';
import { type DeliverySender, InlineDeliverySender } from './delivery-sender';
import { ThreadDeliverySender } from './delivery-sender-thread';
import { type RetrySchedule, spreadOverdue } from './retry-schedule';

/** Attempts overdue by at most this much when the dispatcher starts are not spread. */
const SHORT_OUTAGE_MS = 60_000;

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
  /**
   * Told of every attempt made, once its outcome is recorded: the outcome and how late it left
   * (the metrics).
   */
  onAttempt?: (attempt: { outcome: string; lagMs: number }) => void;
  /** The time source of due times, leases and `X-Timestamp`. */
  clock: Clock;
  /** Delays before each retry (`WEBHOOK_RETRY_SCHEDULE`). */
  retrySchedule: RetrySchedule;
  /** Deadline of one attempt (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Allow http and private addresses (`WEBHOOK_ALLOW_PRIVATE_URLS`). */
  allowPrivate: boolean;
  /** The key a customer's `callbackUrl` deliveries are signed with (its callback secret). */
  callbackSigningKey: (customerId: string) => Promise<string>;
  /** Most attempts in flight at once (`WEBHOOK_CONCURRENCY`). */
  concurrency: number;
  /**
   * Fallback poll interval (`WEBHOOK_POLL_INTERVAL_MS`): commits of this process offer their
   * attempts at once, attempts it schedules (retries, a spread backlog) wake it when they come
   * due, and other processes' commits it does not make wake it through `WebhookWakeUp`; the poll
   * finds the rest (a dead process's leases run out, a note lost).
   */
  pollIntervalMs: number;
  /**
   * Sign and send on a worker thread of its own (`WEBHOOK_SENDER_THREAD`), so the event loop
   * that accepts sends and commits does not; ignored with a `resolver`, which cannot cross to
   * another thread. Default false.
   */
  senderThread?: boolean;
  /**
   * DNS resolver of the connect-time address check (tests script rebinding with it); attempts
   * are then made on the dispatcher's own thread.
   */
  resolver?: HostResolver;
  /** Where to log deactivations and failures. */
  logger?: DispatcherLogger;
  /** Window over which an overdue backlog is released at start. Default 5 minutes. */
  overdueWindowMs?: number;
  /** Consecutive exhausted chains that deactivate a webhook. Default 3 (spec). */
  deactivateAfter?: number;
}

/** The recorded outcome of one claimed attempt, settled without a transaction. */
interface Completion {
  /** The attempt. */
  id: string;
  /** Its result. */
  result: DeliveryResult;
  /** Whether it also ends its webhook's streak of exhausted chains (a 2xx). */
  resetStreak: boolean;
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

/**
 * Most attempts of one receiver held in the queue (the fair queue runs 2 at a time). Each top-up
 * is one look-up, so a receiver with a backlog costs a look-up per half of this many attempts: 8
 * took 0.78 look-ups a delivered message in the end-to-end benchmark, 32 takes 0.2.
 */
export const PER_TARGET_BACKLOG = 32;
/**
 * A receiver whose look-up found a full quota is topped up from the database as soon as its
 * queued attempts fall to this many, so that its lane never runs dry while work is due.
 */
const REFILL_AT = PER_TARGET_BACKLOG / 2;
/** Slack of a lease beyond the attempt deadline, so a slow commit never lets a lease lapse. */
const LEASE_SLACK_MS = 30_000;

const silentLogger: DispatcherLogger = { info() {}, warn() {}, error() {} };

/**
 * The durable webhook dispatcher: polls the delivery queue in the database (and wakes at once
 * when a commit queued deliveries), reads it per receiver (at most {@link PER_TARGET_BACKLOG} attempts of each queued
 * here, topped up from the database as they settle while more are due), leases each due attempt
 * so that two processes never make the same attempt and a crashed one's attempts are made again
 * when the lease runs out, delivers it through the fair {@link DeliveryQueue} and the safe
 * dispatcher (connect-time address check), signs each attempt afresh with the webhook's current
 * secret, records it, schedules the next attempt of the chain, and deactivates a webhook after
 * three consecutive exhausted chains.
 */
export class WebhookDispatcher implements Worker {
  readonly name = 'webhook-dispatcher';
  /** This dispatcher's lease owner id. */
  readonly owner = `dispatcher_${newUuid()}`;
  readonly #options: WebhookDispatcherOptions;
  #log: DispatcherLogger;
  readonly #queue: DeliveryQueue;
  readonly #sender: DeliverySender;
  readonly #leaseMs: number;
  /** Attempts handed to the queue and not settled yet, so a poll does not queue them twice. */
  readonly #queued = new Set<string>();
  /**
   * Receivers with more due attempts in the database than their lanes took (a look-up found a
   * full quota, or an attempt was not handed over), each with when it was last marked (a
   * counter, not a clock): a look-up that started before the mark cannot clear it, since the
   * attempt behind the mark may have been committed after the look-up read.
   */
  readonly #more = new Map<string, number>();
  #marks = 0;
  /** Receivers to top up once their attempts settle (see {@link REFILL_AT}). */
  readonly #toRefill = new Set<string>();
  #refilling: Promise<void> | undefined;
  /**
   * The claims of one moment, made in one unit (one UPDATE and one read for all of them on
   * SQLite, where each was a unit of its own): the attempts `#claimAndAttempt` takes up.
   */
  readonly #claims: GroupedBatch<string, ClaimedDelivery | undefined>;
  /**
   * The completions of one moment that need no transaction (no next attempt, no exhausted
   * chain: nearly all of them), recorded in one unit instead of a unit each.
   */
  readonly #completions: GroupedBatch<Completion, boolean>;
  /** Outcomes of attempts made and not yet committed (the stop waits for them). */
  readonly #recording = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (`clock` time), to bring it forward for an earlier due time. */
  #timerAt = Number.POSITIVE_INFINITY;
  /** Due times (`clock` time, ascending) of attempts this process scheduled for later. */
  readonly #dueTimes: number[] = [];
  #polling: Promise<void> | undefined;
  #pollAgain = false;
  #started = false;
  #stopped = false;

  /** Creates the dispatcher; nothing happens until {@link start}. */
  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
    this.#log = options.logger ?? silentLogger;
    this.#queue = new DeliveryQueue({ concurrency: options.concurrency });
    const senderOptions = { timeoutMs: options.timeoutMs, allowPrivate: options.allowPrivate };
    this.#sender =
      options.senderThread && !options.resolver
        ? new ThreadDeliverySender(senderOptions)
        : new InlineDeliverySender({ ...senderOptions, resolver: options.resolver });
    this.#leaseMs = options.timeoutMs + LEASE_SLACK_MS;
    this.#claims = new GroupedBatch(options.store, async (tx, ids) => {
      const now = options.clock.now();
      const taken = await tx.deliveries.claimMany(
        ids,
        this.owner,
        new Date(now),
        new Date(now + this.#leaseMs),
      );
      const byId = new Map(taken.map((claimed) => [claimed.delivery.id, claimed]));
      return ids.map((id) => byId.get(id));
    });
    this.#completions = new GroupedBatch(options.store, async (tx, completions) => {
      const settled: boolean[] = [];
      for (const { id, result, resetStreak } of completions) {
        settled.push(await tx.deliveries.complete(id, this.owner, result, { resetStreak }));
      }
      return settled;
    });
  }

  /**
   * Starts polling. A long outage's overdue backlog (attempts due more than a minute ago) is first
   * spread over the overdue window, oldest first, instead of being fired in one burst; what a
   * short outage left goes out at once. `exclusive` (the server holds the database's lock) frees
   * the leases a killed process left, so its in-flight attempts are made at once.
   */
  async start(logger?: DispatcherLogger, options: { exclusive?: boolean } = {}): Promise<void> {
    if (logger) this.#log = logger;
    if (this.#started) return;
    this.#started = true;
    if (options.exclusive) {
      // The only server on this database: every lease is a dead process's, and its attempts go
      // out now instead of when their leases would have run out.
      const released = await this.#options.store.deliveries.releaseAllLeases();
      if (released > 0)
        this.#log.info({ released }, 'took over webhook deliveries of a dead process');
    }
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
        this.#arm();
      });
  }

  /**
   * Arms the next look-up: at the earliest due time this process scheduled, or after the
   * fallback poll interval, whichever comes first.
   */
  #arm(): void {
    const now = this.#options.clock.now();
    while ((this.#dueTimes[0] ?? Number.POSITIVE_INFINITY) <= now) this.#dueTimes.shift();
    const at = Math.min(now + this.#options.pollIntervalMs, this.#dueTimes[0] ?? Infinity);
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.wake(), Math.max(0, at - now));
    this.#timer.unref();
  }

  /** Notes an attempt scheduled for `at` (`clock` time): the dispatcher looks when it is due. */
  #noteDue(at: number): void {
    let index = this.#dueTimes.length;
    while (index > 0 && (this.#dueTimes[index - 1] ?? 0) > at) index -= 1;
    this.#dueTimes.splice(index, 0, at);
    // A poll running re-arms when it ends; otherwise bring the timer forward.
    if (!this.#polling && this.#started && !this.#stopped && at < this.#timerAt) this.#arm();
  }

  /**
   * Attempts just committed in this process (an event's first attempts): each due one goes
   * straight to its receiver's lane, sparing the poll's look-ups, unless the lane is full or
   * older attempts of that receiver wait in the database (they go first, in due order). Those
   * left over are found by the lane's own top-up when it has attempts queued (each one that
   * settles tops it up once it runs low), and otherwise by a poll, started at once; those due
   * later by a look-up when they come due. The lease taken before each attempt still decides who
   * makes it.
   * @returns false when this dispatcher does not take them up (stopped, not started, or its
   * queue full): other processes should be woken to make them.
   */
  offer(deliveries: readonly DeliveryRecord[]): boolean {
    if (!this.#started || this.#stopped) return false;
    const now = this.#options.clock.now();
    const full = this.#queue.isFull;
    let poll = false;
    for (const delivery of deliveries) {
      if (this.#queued.has(delivery.id)) continue;
      const targetKey = deliveryTargetKey(delivery);
      const dueAt = (delivery.nextAttemptAt ?? delivery.createdAt).getTime();
      const due = dueAt <= now;
      if (!due) this.#noteDue(dueAt);
      if (!due || this.#more.has(targetKey) || this.#queue.isFull || this.#roomOf(targetKey) <= 0) {
        // A full lane: its later attempts wait behind this one until a look-up finds them. A lane
        // with attempts queued is topped up as they settle (the mark asks for it); an empty one
        // has nothing that would settle, so a poll looks.
        if (due) this.#markMore(targetKey);
        if (!due || this.#queue.outstandingOf(targetKey) === 0) poll = true;
        continue;
      }
      this.#enqueue(delivery.id, targetKey);
    }
    if (poll) this.wake();
    return !full;
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
    if (!claimed) return undefined;
    const { report, recorded } = await this.#attempt(claimed);
    await recorded;
    return report;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#polling;
    await this.#refilling;
    // Attempts not started stay pending in the database: the next start makes them.
    await this.#queue.close();
    await Promise.allSettled(this.#recording);
    await this.#sender.close();
  }

  async #spreadOverdue(): Promise<void> {
    const { store, clock } = this.#options;
    const now = clock.now();
    const overdue = await store.deliveries.listOverdue(new Date(now));
    const spread = spreadOverdue(overdue, {
      now,
      windowMs: this.#options.overdueWindowMs ?? 5 * 60_000,
      // A crash and restart leaves seconds of backlog: it goes out at once, paced by the lanes.
      recentMs: SHORT_OUTAGE_MS,
    });
    for (const { item, runAt } of spread) {
      if (runAt === item.dueAt) continue;
      await store.deliveries.reschedule(item.id, new Date(runAt));
      this.#noteDue(runAt);
    }
    if (overdue.length > 1) {
      this.#log.info({ overdue: overdue.length }, 'spreading overdue webhook deliveries');
    }
  }

  /** Finds the receivers with due work and fills their lanes. */
  async #poll(): Promise<void> {
    const { store, clock } = this.#options;
    const targets = await store.deliveries.listDueTargets(new Date(clock.now()));
    // A receiver whose lane is full now is topped up as it drains.
    for (const targetKey of targets) if (this.#roomOf(targetKey) <= 0) this.#markMore(targetKey);
    await this.#fill(targets.filter((targetKey) => this.#roomOf(targetKey) > 0));
  }

  /** How many more attempts of a receiver the queue takes. */
  #roomOf(targetKey: string): number {
    return PER_TARGET_BACKLOG - this.#queue.outstandingOf(targetKey);
  }

  /**
   * Queues the due attempts of `targetKeys`, up to each one's quota, and notes which receivers
   * had a full quota due (their lanes are topped up as they drain).
   */
  async #fill(targetKeys: readonly string[]): Promise<void> {
    if (targetKeys.length === 0 || this.#stopped) return;
    const { store, clock } = this.#options;
    const lookedUpAt = this.#marks;
    // Attempts already queued here are due and unleased too, hence the whole quota per receiver.
    const due = await store.deliveries.listDueFor(
      new Date(clock.now()),
      targetKeys,
      PER_TARGET_BACKLOG,
    );
    const found = new Map<string, number>();
    // Receivers of which an attempt found was left in the database: the look-up does not list
    // attempts in flight (leased), yet they hold room in the lane, so fewer than a full quota
    // found can still be more than the lane took.
    const leftBehind = new Set<string>();
    for (const { id, targetKey } of due) {
      found.set(targetKey, (found.get(targetKey) ?? 0) + 1);
      if (this.#queued.has(id) || this.#stopped) continue;
      if (this.#queue.isFull || this.#roomOf(targetKey) <= 0) {
        leftBehind.add(targetKey);
        continue;
      }
      this.#enqueue(id, targetKey);
    }
    for (const targetKey of targetKeys) {
      const more = (found.get(targetKey) ?? 0) >= PER_TARGET_BACKLOG || leftBehind.has(targetKey);
      if (more) this.#markMore(targetKey);
      else if ((this.#more.get(targetKey) ?? 0) <= lookedUpAt) this.#more.delete(targetKey);
    }
  }

  /** Notes that more of `targetKey`'s attempts wait in the database than its lane holds. */
  #markMore(targetKey: string): void {
    this.#marks += 1;
    this.#more.set(targetKey, this.#marks);
  }

  #enqueue(id: string, targetKey: string): void {
    this.#queued.add(id);
    this.#queue
      .enqueue(targetKey, () => this.#claimAndAttempt(id))
      .catch((error: unknown) => {
        if (!(error instanceof DeliveryQueueClosedError)) {
          this.#log.error({ err: error, deliveryId: id }, 'webhook delivery failed');
        }
      })
      .finally(() => {
        this.#queued.delete(id);
        this.#settled(targetKey);
      });
  }

  /**
   * An attempt of `targetKey` settled: when more of its work was due and its lane is running
   * low, top it up now rather than at the next poll (which may be a poll interval away).
   */
  #settled(targetKey: string): void {
    if (this.#stopped || !this.#more.has(targetKey)) return;
    if (this.#queue.outstandingOf(targetKey) > REFILL_AT) return;
    this.#toRefill.add(targetKey);
    this.#refill();
  }

  /** Tops up the receivers in {@link #toRefill}, one look-up for all that gathered meanwhile. */
  #refill(): void {
    if (this.#refilling || this.#stopped) return;
    this.#refilling = (async () => {
      while (this.#toRefill.size > 0 && !this.#stopped) {
        const targetKeys = [...this.#toRefill];
        this.#toRefill.clear();
        await this.#fill(targetKeys);
      }
    })()
      .catch((error: unknown) => this.#log.error({ err: error }, 'webhook refill failed'))
      .finally(() => {
        this.#refilling = undefined;
        if (this.#toRefill.size > 0) this.#refill();
      });
  }

  async #claimAndAttempt(id: string): Promise<void> {
    const claimed = await this.#claims.add(id);
    if (!claimed) return;
    const { recorded } = await this.#attempt(claimed);
    // The receiver's slot is free once it answered: recording the outcome is the database's
    // work, and the lease keeps the attempt this worker's until it is recorded.
    this.#recording.add(recorded);
    recorded
      .catch((error: unknown) => {
        this.#log.error({ err: error, deliveryId: id }, 'recording a webhook attempt failed');
      })
      .finally(() => this.#recording.delete(recorded));
  }

  /**
   * Makes one claimed attempt; `recorded` settles once its outcome (and the next attempt of its
   * chain, and the webhook's streak) is committed.
   */
  async #attempt(
    claimed: ClaimedDelivery,
  ): Promise<{ report: AttemptReport; recorded: Promise<void> }> {
    const { delivery } = claimed;
    const target = await this.#target(claimed);
    if ('dropped' in target) {
      const result: DeliveryResult = {
        status: 'failed',
        statusCode: null,
        durationMs: null,
        error: target.dropped,
        responseBody: null,
        attemptedAt: null,
        nextAttemptAt: null,
      };
      await this.#options.store.deliveries.complete(delivery.id, this.owner, result);
      return {
        report: { delivered: false, statusCode: null, durationMs: 0, error: target.dropped },
        recorded: Promise.resolve(),
      };
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
    return {
      report: {
        delivered: outcome.kind === 'delivered',
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        error: outcome.error,
      },
      recorded: this.#record(delivery, plan),
    };
  }

  /** Records an attempt's outcome: its row, the next attempt of its chain, the streak. */
  #record(delivery: DeliveryRecord, plan: AttemptPlan): Promise<void> {
    const due = (delivery.nextAttemptAt ?? delivery.createdAt).getTime();
    const attempt = {
      outcome: plan.result.status,
      lagMs: Math.max(0, (plan.result.attemptedAt?.getTime() ?? due) - due),
    };
    // Told once recorded: whoever counts it then also finds its row settled (not still pending),
    // and an attempt whose record failed is counted when it is made again, not twice.
    return this.#commit(delivery, plan).then(() => this.#options.onAttempt?.(attempt));
  }

  /** Commits an attempt's outcome (see {@link #record}). */
  #commit(delivery: DeliveryRecord, plan: AttemptPlan): Promise<void> {
    const resetStreak = plan.streak === 'reset' && delivery.webhookId !== null;
    // The completion alone (with its streak reset) is one atomic step: batched, as claims are.
    if (!plan.followUp && plan.streak !== 'exhausted') {
      const completion: Completion = { id: delivery.id, result: plan.result, resetStreak };
      return this.#completions.add(completion).then(() => undefined);
    }
    // With the next attempt of a chain, or an exhausted chain counted, it is a transaction.
    return this.#options.store.transaction(async (tx) => {
      // A lost lease means another worker took the attempt over; its record wins.
      if (!(await tx.deliveries.complete(delivery.id, this.owner, plan.result, { resetStreak }))) {
        return;
      }
      if (plan.followUp) {
        await tx.deliveries.insertMany([plan.followUp]);
        const { nextAttemptAt } = plan.followUp;
        if (nextAttemptAt) tx.afterCommit(() => this.#noteDue(nextAttemptAt.getTime()));
      }
      if (delivery.webhookId === null || plan.streak !== 'exhausted') return;
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
    });
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
    // A callbackUrl is signed with the customer's callback secret (read at each attempt, so a
    // rotation applies to retries already scheduled).
    return {
      url: delivery.targetUrl ?? '',
      secret: await this.#options.callbackSigningKey(delivery.customerId),
    };
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
      return unansweredOutcome(error.message);
    }
    const { delivery, payload } = claimed;
    return this.#sender.send({
      url: target.url,
      secret: target.secret,
      body: payload,
      timestamp: attemptedAt,
      correlationId: claimed.correlationId,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
    });
  }
}
