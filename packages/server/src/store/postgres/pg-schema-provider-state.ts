import { index, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { text, timestamp } from './pg-columns';
import { instanceIdColumn } from './pg-schema';

/**
 * Durable key-value state of each provider instance (WhatsApp credentials and keys, reconciliation
 * cursors): what `ProviderStateStore` reads and writes.
 */
export const providerState = pgTable(
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
export const providerEventReceipts = pgTable(
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
export const providerLeases = pgTable(
  'provider_leases',
  {
    instanceId: instanceIdColumn(),
    name: text('name').notNull(),
    holder: text('holder').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.instanceId, table.name] })],
);
