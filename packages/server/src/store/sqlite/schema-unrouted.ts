import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Channel } from '../store-types';
import type { UnroutedReason } from '../unrouted-inbound-repository';
import { timestamp } from './columns';
import { instanceIdColumn } from './schema';

/**
 * Inbound items no customer could receive (the receiving address is assigned to nobody, or on
 * another instance): kept until the address is assigned, an operator discards them, or their
 * retention ends. `payload` is the provider event, sealed (see sealed-columns).
 */
export const unroutedInbound = sqliteTable(
  'unrouted_inbound',
  {
    id: text('id').primaryKey(),
    instanceId: instanceIdColumn(),
    address: text('address').notNull(),
    kind: text('kind').notNull(),
    reason: text('reason').$type<UnroutedReason>().notNull(),
    from: text('from_address'),
    channel: text('channel').$type<Channel>().notNull(),
    payload: text('payload').notNull(),
    receivedAt: timestamp('received_at').notNull(),
  },
  (table) => [
    // Delivery and the operator's list read one address's items in order; retention by age.
    index('unrouted_inbound_address_idx').on(table.instanceId, table.address, table.receivedAt),
    index('unrouted_inbound_received_idx').on(table.receivedAt),
  ],
);
