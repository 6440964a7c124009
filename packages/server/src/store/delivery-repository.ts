import type {
  EventType,
  WEBHOOK_DELIVERY_TRIGGERS,
  WebhookDeliveryStatus,
} from '@switchboard/contract';

/** The state of one delivery attempt (see the contract's `WebhookDeliveryStatus`). */
export type DeliveryStatus = WebhookDeliveryStatus;

/** What caused a delivery attempt. */
export type DeliveryTrigger = (typeof WEBHOOK_DELIVERY_TRIGGERS)[number];

/** One delivery attempt as stored; a `pending` row is also a unit of durable work. */
export interface DeliveryRecord {
  /** UUID v7. */
  id: string;
  /** The customer the event belongs to. */
  customerId: string;
  /** The webhook delivered to; null for a message's `callbackUrl`. */
  webhookId: string | null;
  /** The `callbackUrl` delivered to; null for webhooks (their current URL is used). */
  targetUrl: string | null;
  /** The event delivered. */
  eventId: string;
  /** Its type. */
  eventType: EventType;
  /** 1 for the first attempt of a chain, n + 1 for its n-th retry. */
  attempt: number;
  /** What caused the attempt. */
  trigger: DeliveryTrigger;
  /** Its state. */
  status: DeliveryStatus;
  /** The receiver's HTTP status, when one answered. */
  statusCode: number | null;
  /** How long the attempt took. */
  durationMs: number | null;
  /** Why it failed. */
  error: string | null;
  /** The start of the receiver's response body, for the delivery log (at most 1,024 characters, `attempt-plan.ts`). */
  responseBody: string | null;
  /** When it was queued. */
  createdAt: Date;
  /** When the request was sent. */
  attemptedAt: Date | null;
  /** When it is due (`pending`), or when its follow-up is due (`retrying`). */
  nextAttemptAt: Date | null;
  /** The worker holding it while in flight. */
  leaseOwner: string | null;
  /** When that worker's hold expires (after a crash, the attempt is made again). */
  leaseUntil: Date | null;
}

/** The prefix of a callback URL's receiver key (a webhook's key is its id, never prefixed). */
export const URL_TARGET_KEY_PREFIX = 'url:';

/**
 * The receiver an attempt goes to, as the dispatcher queues it: the webhook's id, or
 * `url:<callbackUrl>` for a message's callback URL.
 */
export function deliveryTargetKey(
  delivery: Pick<DeliveryRecord, 'webhookId' | 'targetUrl'>,
): string {
  return delivery.webhookId ?? `${URL_TARGET_KEY_PREFIX}${delivery.targetUrl ?? ''}`;
}

/** A due attempt, as the dispatcher's poll sees it. */
export interface DueDelivery {
  /** The attempt's id. */
  id: string;
  /** The receiver it goes to (webhook id, or `url:<callbackUrl>`), for fair queuing. */
  targetKey: string;
}

/** Everything needed to make one claimed attempt, read when it was claimed. */
export interface ClaimedDelivery {
  /** The attempt. */
  delivery: DeliveryRecord;
  /** The event's serialized body. */
  payload: string;
  /** The event's correlation id. */
  correlationId: string;
  /** The webhook, when the attempt targets one (null for a callback URL). */
  webhook: { url: string; secret: string; active: boolean } | null;
  /** Whether the owning customer was deleted (its deliveries are dropped). */
  customerDeleted: boolean;
}

/** A claimed attempt as either store reads it: the webhook's columns are null for a callback URL. */
export interface ClaimedRow {
  /** The attempt. */
  delivery: DeliveryRecord;
  /** The event's serialized body. */
  payload: string;
  /** The event's correlation id. */
  correlationId: string;
  /** When the owning customer was deleted, or null. */
  customerDeletedAt: Date | null;
  /** The webhook's URL. */
  webhookUrl: string | null;
  /** The webhook's signing secret, sealed. */
  webhookSecret: string | null;
  /** Whether the webhook is active. */
  webhookActive: boolean | null;
}

/** The {@link ClaimedDelivery} of a claimed row; `open` unseals the webhook's secret. */
export function toClaimedDelivery(
  row: ClaimedRow,
  open: (sealed: string) => string,
): ClaimedDelivery {
  const { webhookUrl: url, webhookSecret: secret, webhookActive: active } = row;
  return {
    delivery: row.delivery,
    payload: row.payload,
    correlationId: row.correlationId,
    webhook:
      url === null || secret === null || active === null
        ? null
        : { url, secret: open(secret), active },
    customerDeleted: row.customerDeletedAt !== null,
  };
}

/** The recorded result of an attempt. */
export interface DeliveryResult {
  /** The new state. */
  status: Exclude<DeliveryStatus, 'pending'>;
  /** The receiver's status, if any. */
  statusCode: number | null;
  /** How long the attempt took; null when no request was made (the attempt was dropped). */
  durationMs: number | null;
  /** Why it failed, if it did. */
  error: string | null;
  /** The start of the receiver's response body; null when none came (or it was empty). */
  responseBody: string | null;
  /** When the request was sent; null when no request was made. */
  attemptedAt: Date | null;
  /** When the follow-up attempt is due (status `retrying`). */
  nextAttemptAt: Date | null;
}

/** A page request on one webhook's delivery log. */
export interface DeliveryPageQuery {
  /** At most this many rows. */
  limit: number;
  /** Only rows older than this attempt id (the cursor). */
  before?: string;
  /** Only rows in this state. */
  status?: DeliveryStatus;
  /** Only rows of this event. */
  eventId?: string;
}

/** Delivery attempts: the log the API shows and the dispatcher's durable queue. */
export interface DeliveryRepository {
  /** Queues or records attempts. */
  insertMany(deliveries: readonly DeliveryRecord[]): Promise<void>;
  /** How many attempts made at or after `since` failed (`retrying` or `failed`), every customer's. */
  countFailedSince(since: Date): Promise<number>;
  /** How many attempts wait to be made (`pending`, due or not): the delivery backlog. */
  countPending(): Promise<number>;
  /** The customer's attempt with this id on this webhook. */
  findForWebhook(
    customerId: string,
    webhookId: string,
    id: string,
  ): Promise<DeliveryRecord | undefined>;
  /** A page of one webhook's attempts, newest first. */
  listForWebhook(
    customerId: string,
    webhookId: string,
    query: DeliveryPageQuery,
  ): Promise<DeliveryRecord[]>;
  /**
   * Every attempt of the customer's events `eventIds`, webhook and callback alike, oldest first
   * (a seek per event on `webhook_deliveries_event_idx`).
   */
  listForEvents(customerId: string, eventIds: readonly string[]): Promise<DeliveryRecord[]>;
  /** A page of the customer's attempts to its messages' callback URLs, newest first. */
  listCallbacks(customerId: string, query: DeliveryPageQuery): Promise<DeliveryRecord[]>;
  /**
   * The receivers (target keys, as in {@link DueDelivery}) with an attempt due by `now`, leased
   * or not. Costs a few index seeks per receiver with pending attempts, however long the backlog.
   */
  listDueTargets(now: Date): Promise<string[]>;
  /**
   * Due, unleased attempts of each of `targetKeys`, each receiver's in due order, at most
   * `perTarget` of each (so one receiver's backlog cannot crowd out the others). Costs one index
   * range per receiver, however long the backlog.
   */
  listDueFor(now: Date, targetKeys: readonly string[], perTarget: number): Promise<DueDelivery[]>;
  /**
   * Takes the lease on a due attempt for `owner` until `leaseUntil`; undefined when it is no
   * longer pending or a lease on it is held. Atomic across processes sharing the database.
   * `ignoreDueTime` claims a pending attempt before it is due (a test delivery made at once).
   */
  claim(
    id: string,
    owner: string,
    now: Date,
    leaseUntil: Date,
    options?: { ignoreDueTime?: boolean },
  ): Promise<ClaimedDelivery | undefined>;
  /**
   * {@link claim} of several due attempts at once (the dispatcher's claims of one moment, in one
   * statement and one read): the attempts of `ids` taken, in no particular order; the others were
   * no longer pending, not due, or leased.
   */
  claimMany(
    ids: readonly string[],
    owner: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<ClaimedDelivery[]>;
  /**
   * Records the result of a claimed attempt; false when `owner` lost the lease meanwhile.
   * `resetStreak` also ends the streak of exhausted chains of the attempt's webhook (after a 2xx),
   * in the same step: one statement on PostgreSQL, so the pair needs no transaction there.
   */
  complete(
    id: string,
    owner: string,
    result: DeliveryResult,
    options?: { resetStreak?: boolean },
  ): Promise<boolean>;
  /** Pending, unleased attempts already due at `now`, with when they were due. */
  listOverdue(now: Date): Promise<Array<{ id: string; dueAt: number }>>;
  /** Moves a pending attempt's due time. */
  reschedule(id: string, at: Date): Promise<void>;
  /**
   * Frees every lease on a pending attempt, for a server that knows it is the only one on the
   * database (the SQLite lock): the leases are a dead process's. Answers how many were freed.
   */
  releaseAllLeases(): Promise<number>;
}
