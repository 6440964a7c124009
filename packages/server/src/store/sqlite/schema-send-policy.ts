import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Channel } from '../store-types';

/**
 * The send policies set by the operator: one row per number or instance (`scope`), the policy as
 * JSON (see `send-policy-repository.ts`). Times in these tables are epoch milliseconds on both
 * stores, so that one hand-written repository serves both.
 */
export const sendPolicies = sqliteTable(
  'send_policies',
  {
    scope: text('scope').$type<'number' | 'instance'>().notNull(),
    scopeId: text('scope_id').notNull(),
    policy: text('policy').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.scopeId] })],
);

/**
 * One row per message that left a number (counted once, on its first channel): the day it counts
 * on, its recipient and whether it was a cold contact. Read to tell a contact already reached.
 */
export const sendUsage = sqliteTable(
  'send_usage',
  {
    messageId: text('message_id').primaryKey(),
    numberId: text('number_id').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    day: text('day').notNull(),
    recipient: text('recipient').notNull(),
    cold: integer('cold').notNull(),
    at: integer('at').notNull(),
  },
  (table) => [index('send_usage_number_recipient_idx').on(table.numberId, table.recipient)],
);

/**
 * Today's counts per number and channel: the row every counted send updates, so that two
 * processes counting at once conflict (PostgreSQL runs one of them again) instead of both passing.
 */
export const sendUsageDays = sqliteTable(
  'send_usage_days',
  {
    numberId: text('number_id').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    day: text('day').notNull(),
    sends: integer('sends').notNull(),
    coldContacts: integer('cold_contacts').notNull(),
  },
  (table) => [primaryKey({ columns: [table.numberId, table.channel, table.day] })],
);

/**
 * A number's restriction state: the recent sends WhatsApp refused with a restriction code (epoch
 * ms, JSON array), and until when cold-contact sends hold.
 */
export const numberRestrictions = sqliteTable('number_restrictions', {
  numberId: text('number_id').primaryKey(),
  strikes: text('strikes').notNull(),
  restrictedUntil: integer('restricted_until'),
  code: text('code'),
  reason: text('reason'),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The delivery watchdog's pauses of a number's sends, per channel: paused since `paused_at` (with
 * the verdict that paused it) until the operator resumes it; `resumed_at` is the last resume,
 * from which the watchdog gathers new evidence. Null `paused_at`: not paused.
 */
export const numberPauses = sqliteTable(
  'number_pauses',
  {
    numberId: text('number_id').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    pausedAt: integer('paused_at'),
    reason: text('reason'),
    resumedAt: integer('resumed_at'),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.numberId, table.channel] })],
);
