import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { ProviderAvailability } from '../../providers/provider';
import { customers } from './schema';

/**
 * What one instance's provider answered about an address, per customer (so a cache hit never
 * tells a customer that someone else asked). Entries older than `CAPABILITY_CACHE_TTL_MS` are
 * probed again and replaced.
 */
export const capabilityCache = sqliteTable(
  'capability_cache',
  {
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id),
    instanceId: text('instance_id').notNull(),
    address: text('address').notNull(),
    availability: text('availability', { mode: 'json' }).$type<ProviderAvailability>().notNull(),
    cachedAt: integer('cached_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.customerId, table.instanceId, table.address] })],
);
