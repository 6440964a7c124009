import type { EventType, WebhookEventSelector } from '@switchboard/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, json, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import type { DeliveryStatus, DeliveryTrigger } from '../delivery-repository';
import { text, timestamp } from './pg-columns';
import { customerIdColumn } from './pg-schema';

/**
 * Every event, exactly as receivers get it: `payload` holds the serialized body, so the bytes
 * signed for a webhook, retried days later and written to the stream are always the same.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    type: text('type').$type<EventType>().notNull(),
    payload: text('payload').notNull(),
    correlationId: text('correlation_id').notNull(),
    messageId: text('message_id'),
    callbackUrl: text('callback_url'),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [
    // The replay and the event log.
    index('events_customer_created_idx').on(table.customerId, table.createdAt),
    // A message's events, oldest first (GET /v1/messages/{id}/events). Partial: events about no
    // message (typing, chats, FaceTime, WhatsApp status) never pay for it
    // (docs/decisions/0569-a-message-s-events-through-a-partial-index.md).
    index('events_message_idx')
      .on(table.messageId, table.createdAt)
      .where(sql`${table.messageId} is not null`),
  ],
);

/** Each customer's signing secret of `callbackUrl` deliveries (sealed: see sealed-columns). */
export const callbackSecrets = pgTable('callback_secrets', {
  customerId: customerIdColumn().primaryKey(),
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at').notNull(),
});

/**
 * Webhook registrations. `secret` is kept readable because every delivery is signed with it;
 * `events_key` is the sorted event set, so "same (url, event set)" is one indexed comparison.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    name: text('name'),
    url: text('url').notNull(),
    events: json('events').$type<WebhookEventSelector[]>().notNull(),
    eventsKey: text('events_key').notNull(),
    secret: text('secret').notNull(),
    active: boolean('active').notNull(),
    /** Consecutive delivery chains that ended exhausted; three deactivate the webhook. */
    exhaustedChains: integer('exhausted_chains').notNull().default(0),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (table) => [
    index('webhooks_customer_idx').on(table.customerId, table.createdAt),
    // The uniqueness rule among active webhooks, enforced by the database as well, so two
    // processes creating the same registration at once cannot both succeed.
    uniqueIndex('webhooks_active_url_events_unique')
      .on(table.customerId, table.url, table.eventsKey)
      .where(sql`${table.active}`),
  ],
);

/**
 * One row per delivery attempt, and the durable work queue at the same time: a `pending` row
 * whose `next_attempt_at` has passed and whose lease is free is due. `webhook_id` is null for a
 * message's `callbackUrl`, whose address is then in `target_url`.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    webhookId: text('webhook_id').references(() => webhooks.id, { onDelete: 'cascade' }),
    targetUrl: text('target_url'),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    eventType: text('event_type').$type<EventType>().notNull(),
    attempt: integer('attempt').notNull(),
    trigger: text('trigger').$type<DeliveryTrigger>().notNull(),
    status: text('status').$type<DeliveryStatus>().notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    /** The start of the receiver's response body (at most 1,024 characters). */
    responseBody: text('response_body'),
    createdAt: timestamp('created_at').notNull(),
    attemptedAt: timestamp('attempted_at'),
    nextAttemptAt: timestamp('next_attempt_at'),
    /** Which worker holds the attempt, and until when: a crashed worker's lease runs out. */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until'),
  },
  (table) => [
    // The dispatcher's queue: pending attempts by receiver (a webhook, or a callback URL when
    // `webhook_id` is null), in due order. Partial, so it holds the backlog only, never the
    // delivery log of settled attempts. It also serves every other look-up of pending attempts
    // (the backlog count, overdue attempts and leases at start-up), which compare `status` with
    // the constant 'pending' so the planner may use it: a second index over every attempt's
    // status, written on each insert and completion, paid for queries that run at start-up.
    index('webhook_deliveries_pending_target_idx')
      .on(table.webhookId, table.targetUrl, table.nextAttemptAt, table.id)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(table.webhookId, table.id),
    // The operator's stats: failed attempts by when they were made. Partial, so it holds the
    // failures only, never the settled deliveries.
    index('webhook_deliveries_failed_attempted_idx')
      .on(table.attemptedAt)
      .where(sql`${table.status} in ('retrying', 'failed')`),
    index('webhook_deliveries_event_idx').on(table.eventId),
    // The callback delivery log: a customer's attempts to its messages' callback URLs.
    index('webhook_deliveries_callbacks_idx')
      .on(table.customerId, table.id)
      .where(sql`${table.webhookId} is null`),
  ],
);
