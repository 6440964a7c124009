import type { EventType, WebhookEventSelector } from '@switchboard/contract';

/** A webhook registration as stored, secret included. */
export interface WebhookRecord {
  /** UUID v7. */
  id: string;
  /** The owning customer. */
  customerId: string;
  /** Display name, or null. */
  name: string | null;
  /** The normalized receiver URL (as the URL guard returned it). */
  url: string;
  /** The subscribed event types, in the caller's order, or `['*']`. */
  events: WebhookEventSelector[];
  /** The signing secret (readable: every delivery is signed with it). */
  secret: string;
  /** Whether events are delivered to it. */
  active: boolean;
  /** Consecutive delivery chains that ended exhausted; three deactivate the webhook. */
  exhaustedChains: number;
  /** Creation time. */
  createdAt: Date;
  /** Last change of any field. */
  updatedAt: Date;
}

/** The fields an update can change. */
export type WebhookChanges = Partial<
  Pick<WebhookRecord, 'name' | 'url' | 'events' | 'secret' | 'active' | 'exhaustedChains'>
> & { updatedAt: Date };

/** Thrown by the store when a write would make two active webhooks share (url, event set). */
export class DuplicateWebhookError extends Error {
  override readonly name = 'DuplicateWebhookError';
}

/** Webhook registrations. Every query is scoped by customer, except by-id worker look-ups. */
export interface WebhookRepository {
  /**
   * Stores a new registration.
   * @throws {DuplicateWebhookError} when it is active and collides with another active one.
   */
  insert(webhook: WebhookRecord): Promise<void>;
  /** The customer's webhook with this id. */
  findById(customerId: string, id: string): Promise<WebhookRecord | undefined>;
  /** Every webhook of the customer, oldest first. */
  listByCustomer(customerId: string): Promise<WebhookRecord[]>;
  /** The customer's oldest active webhook (the one the legacy endpoints act on). */
  findOldestActive(customerId: string): Promise<WebhookRecord | undefined>;
  /**
   * An active webhook of the customer with this URL and exactly this event set (order ignored),
   * other than `exceptId`.
   */
  findActiveDuplicate(
    customerId: string,
    url: string,
    events: readonly WebhookEventSelector[],
    exceptId?: string,
  ): Promise<WebhookRecord | undefined>;
  /**
   * The ids of the customer's active webhooks subscribed to `type` or to `*`, oldest first: read
   * for every event recorded, which needs nothing else of them.
   */
  listActiveSubscribedIds(customerId: string, type: EventType): Promise<string[]>;
  /**
   * Changes fields of the customer's webhook; false when there is no such webhook.
   * @throws {DuplicateWebhookError} when the change would collide with another active webhook.
   */
  update(customerId: string, id: string, changes: WebhookChanges): Promise<boolean>;
  /** Deactivates every active webhook of the customer; returns how many. */
  deactivateAll(customerId: string, at: Date): Promise<number>;
  /** Deletes the customer's webhook (and, with it, its delivery log); false when missing. */
  delete(customerId: string, id: string): Promise<boolean>;
  /**
   * Counts one more exhausted chain and deactivates the webhook when the streak reaches
   * `threshold`; returns the new streak and whether this call deactivated it.
   */
  recordExhaustedChain(
    id: string,
    threshold: number,
    at: Date,
  ): Promise<{ streak: number; deactivated: boolean }>;
}

/** The canonical form of an event set: sorted and comma-joined, so order never matters. */
export function eventSetKey(events: readonly string[]): string {
  return [...events].sort().join(',');
}
