import type { Channel, MessageEffect, MessageStatus, Metadata } from '@switchboard/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { EarlyStatusUpdate } from '../message-attempt-repository';
import type {
  MessageDirection,
  StoredAttachment,
  StoredHold,
  StoredMention,
  StoredTimelineEntry,
} from '../message-repository';
import { bytea, text, timestamp } from './pg-columns';
import { customerIdColumn, instanceIdColumn } from './pg-schema';

/**
 * Messages, outbound and inbound. `timeline` is a JSON array rewritten on every status change (a
 * message has a handful of entries); request-side base64 bytes live in `message_attachment_data`
 * so that lists never read them.
 */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    direction: text('direction').$type<MessageDirection>().notNull(),
    status: text('status').$type<MessageStatus>().notNull(),
    toAddress: text('to_address'),
    conversationId: text('conversation_id'),
    providerChatId: text('provider_chat_id'),
    isGroup: boolean('is_group').notNull().default(false),
    fromAddress: text('from_address').notNull(),
    instanceId: instanceIdColumn(),
    channel: text('channel').$type<Channel>(),
    pinnedChannel: text('pinned_channel').$type<Channel>(),
    text: text('text').notNull(),
    mediaUrls: json('media_urls').$type<string[]>(),
    attachments: json('attachments').$type<StoredAttachment[]>().notNull(),
    effect: text('effect').$type<MessageEffect>(),
    messageType: text('message_type').$type<'carousel'>(),
    mentions: json('mentions').$type<StoredMention[]>(),
    replyTo: text('reply_to'),
    scheduledAt: timestamp('scheduled_at'),
    idempotencyKey: text('idempotency_key'),
    callbackUrl: text('callback_url'),
    metadata: json('metadata').$type<Metadata>(),
    createContact: boolean('create_contact'),
    routingPreference: json('routing_preference').$type<Channel[]>().notNull(),
    routingFallback: boolean('routing_fallback').notNull(),
    fallbackTriggered: boolean('fallback_triggered').notNull(),
    externalId: text('external_id'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    retryCount: integer('retry_count').notNull().default(0),
    timeline: json('timeline').$type<StoredTimelineEntry[]>().notNull(),
    correlationId: text('correlation_id').notNull(),
    suppressed: boolean('suppressed').notNull().default(false),
    /** `device` for an outbound message the instance's own device sent; null otherwise. */
    source: text('source').$type<'device'>(),
    /** SMS segments the upstream counted for the send (Twilio `num_segments`, summed over parts). */
    segments: integer('segments'),
    /** Why a queued message waits for its number's send policy (see `send-policy/`); else null. */
    hold: json('hold').$type<StoredHold>(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    deletedAt: timestamp('deleted_at'),
    /** When retention redacted the body and media (the record and timeline stay). */
    redactedAt: timestamp('redacted_at'),
  },
  (table) => [
    // The list, newest first, and its status and recipient filters: each an index that ends in
    // the (created_at, id) cursor, so a page is one index range scan.
    index('messages_customer_created_idx').on(table.customerId, table.createdAt, table.id),
    // The operator's list across customers, newest first, and the recent window of its stats.
    index('messages_created_idx').on(table.createdAt, table.id),
    index('messages_customer_status_idx').on(
      table.customerId,
      table.status,
      table.createdAt,
      table.id,
    ),
    index('messages_customer_to_idx').on(
      table.customerId,
      table.toAddress,
      table.createdAt,
      table.id,
    ),
    // The scheduler's due scan and the scheduled list, soonest first. Partial: a message is in it
    // only while `scheduled`, so the status changes of every other send never write to it (two
    // pages of each commit under load, one in ten). `status` leads although it is constant here,
    // so that SQLite, with no statistics, prefers this index to the next one for those queries.
    // Other look-ups by status alone (the dispatcher's queued and pending sweeps, the metrics'
    // counts) use the next index.
    index('messages_scheduled_idx')
      .on(table.status, table.scheduledAt, table.id)
      .where(sql`${table.status} = 'scheduled'`),
    // Start-up reconciliation of recently changed sent/delivered messages: a range per status
    // instead of every delivered message ever (555 ms → 69 ms at 1M messages).
    index('messages_status_updated_idx').on(table.status, table.updatedAt),
    // Inbound look-ups of reply and reaction targets by provider id.
    index('messages_instance_external_idx').on(table.instanceId, table.externalId),
    // Exactly one message per idempotency key and customer, even under concurrent duplicates.
    uniqueIndex('messages_customer_idempotency_key_unique')
      .on(table.customerId, table.idempotencyKey)
      .where(sql`${table.idempotencyKey} is not null`),
  ],
);

/** The bytes of the `base64` attachments of a send: a retry, even much later, sends them again. */
export const messageAttachmentData = pgTable(
  'message_attachment_data',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id),
    position: integer('position').notNull(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.messageId, table.position] })],
);

/**
 * Every delivery attempt of a message on one channel. `attempt_id` is what providers echo on
 * status updates, so an update that races the send's answer still finds its message.
 */
export const messageAttempts = pgTable('message_attempts', {
  attemptId: text('attempt_id').primaryKey(),
  messageId: text('message_id')
    .notNull()
    .references(() => messages.id),
  customerId: customerIdColumn(),
  instanceId: text('instance_id').notNull(),
  attempt: integer('attempt').notNull(),
  channel: text('channel').$type<Channel>().notNull(),
  externalId: text('external_id'),
  earlyUpdates: json('early_updates').$type<EarlyStatusUpdate[]>(),
  createdAt: timestamp('created_at').notNull(),
});

/** The reaction each sender has on a message: one per message per sender. */
export const messageReactions = pgTable(
  'message_reactions',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id),
    sender: text('sender').notNull(),
    customerId: customerIdColumn(),
    reaction: text('reaction').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.messageId, table.sender] })],
);

/**
 * The upstream messages of an attempt that became several (an SMS with three attachments is three
 * MMS): each part's provider id and furthest status, which aggregate into the message's status.
 * Attempts of one upstream message have no rows here.
 */
export const messageParts = pgTable(
  'message_parts',
  {
    attemptId: text('attempt_id')
      .notNull()
      .references(() => messageAttempts.attemptId),
    partIndex: integer('part_index').notNull(),
    instanceId: text('instance_id').notNull(),
    externalId: text('external_id').notNull(),
    kind: text('kind').$type<'text' | 'attachment'>().notNull(),
    status: text('status').$type<'sent' | 'delivered' | 'read' | 'failed'>(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
  },
  (table) => [
    primaryKey({ columns: [table.attemptId, table.partIndex] }),
    index('message_parts_instance_external_idx').on(table.instanceId, table.externalId),
  ],
);

/**
 * Per-member receipts of group messages (WhatsApp reports delivery and reads per participant):
 * the message is `delivered` once every member's device has it and `read` once every member has
 * read it.
 */
export const messageReceipts = pgTable(
  'message_receipts',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id),
    recipient: text('recipient').notNull(),
    status: text('status').$type<'delivered' | 'read'>().notNull(),
    at: timestamp('at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.messageId, table.recipient] })],
);
