import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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
