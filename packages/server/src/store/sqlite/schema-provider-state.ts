import { index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns';
import { instanceIdColumn } from './schema';

/**
 * Durable key-value state of each provider instance (WhatsApp credentials and keys, reconciliation
 * cursors): what `ProviderStateStore` reads and writes.
 */
export const providerState = sqliteTable(
  'provider_state',
  {
    instanceId: instanceIdColumn(),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (table) => [primaryKey({ columns: [table.instanceId, table.key] })],
);

/**
 * Upstream events already taken, by the upstream's own id, per instance: an upstream that calls
 * twice, out of order or replays its history after a restart produces each event once. Rows older
 * than the retention window are pruned.
 */
export const providerEventReceipts = sqliteTable(
  'provider_event_receipts',
  {
    instanceId: instanceIdColumn(),
    upstreamId: text('upstream_id').notNull(),
    receivedAt: timestamp('received_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.instanceId, table.upstreamId] }),
    index('provider_event_receipts_received_at_idx').on(table.receivedAt),
  ],
);

/**
 * Leases of provider instances on something only one process may hold at a time (the socket of a
 * WhatsApp number): the holder and until when, renewed while held, free once expired.
 */
export const providerLeases = sqliteTable(
  'provider_leases',
  {
    instanceId: instanceIdColumn(),
    name: text('name').notNull(),
    holder: text('holder').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.instanceId, table.name] })],
);

/**
 * The next instant each sender number of an instance may start a message, and hand one to its
 * upstream, shared
 * by the processes of a PostgreSQL database. On SQLite (one server process) it stays empty: the
 * process paces its numbers in memory. Kept for the twin schemas to match.
 */
export const senderPace = sqliteTable(
  'sender_pace',
  {
    instanceId: text('instance_id').notNull(),
    sender: text('sender').notNull(),
    /** `start` (when a message may start) or `departure` (when it may reach the upstream). */
    book: text('book').notNull(),
    nextAt: timestamp('next_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.instanceId, table.sender, table.book] })],
);

/**
 * The start slot each paced message took in its sender's book, kept for five minutes after its
 * instant (`HELD_SLOT_MS` in `sender-pace-book.ts`): a process that drives a message another accepted (its sweep, a
 * hand-off) waits for that slot instead of taking a new one at the back of the book. Shared by
 * the processes of a PostgreSQL database; on SQLite (one server process) it stays empty, the
 * process keeps its slots in memory. Kept for the twin schemas to match.
 */
export const senderPaceSlots = sqliteTable(
  'sender_pace_slots',
  {
    instanceId: text('instance_id').notNull(),
    sender: text('sender').notNull(),
    messageId: text('message_id').notNull(),
    at: timestamp('at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.instanceId, table.sender, table.messageId] })],
);
