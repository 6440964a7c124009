import type { ProviderAvailability } from '@switchboard/provider-kit';
import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns';
import { customerIdColumn } from './schema';

/**
 * What one instance's provider answered about an address, per customer (so a cache hit never
 * tells a customer that someone else asked). Entries older than `CAPABILITY_CACHE_TTL_MS` are
 * probed again and replaced.
 */
export const capabilityCache = sqliteTable(
  'capability_cache',
  {
    customerId: customerIdColumn(),
    instanceId: text('instance_id').notNull(),
    address: text('address').notNull(),
    availability: text('availability', { mode: 'json' }).$type<ProviderAvailability>().notNull(),
    cachedAt: timestamp('cached_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.customerId, table.instanceId, table.address] })],
);
