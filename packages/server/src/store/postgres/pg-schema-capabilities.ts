import type { ProviderAvailability } from '@switchboard/provider-kit';
import { json, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { text, timestamp } from './pg-columns';
import { customerIdColumn } from './pg-schema';

/**
 * What one instance's provider answered about an address, per customer (so a cache hit never
 * tells a customer that someone else asked). Entries older than `CAPABILITY_CACHE_TTL_MS` are
 * probed again and replaced.
 */
export const capabilityCache = pgTable(
  'capability_cache',
  {
    customerId: customerIdColumn(),
    instanceId: text('instance_id').notNull(),
    address: text('address').notNull(),
    availability: json('availability').$type<ProviderAvailability>().notNull(),
    cachedAt: timestamp('cached_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.customerId, table.instanceId, table.address] })],
);
