import type {
  Channel,
  RoutingCapability,
  RoutingDecision,
  RoutingReason,
} from '@switchboard/contract';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns';
import { customerIdColumn } from './schema';
import { messages } from './schema-messages';

/**
 * The routing trace of each message: one row per channel, instance or wait considered, appended
 * in the order they happened (`id` grows), read back by message.
 */
export const routingSteps = sqliteTable(
  'message_routing_steps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id),
    customerId: customerIdColumn(),
    attempt: integer('attempt').notNull(),
    at: timestamp('at').notNull(),
    channel: text('channel').$type<Channel>(),
    instanceId: text('instance_id'),
    decision: text('decision').$type<RoutingDecision>().notNull(),
    reason: text('reason').$type<RoutingReason>().notNull(),
    detail: text('detail').notNull(),
    code: text('code'),
    capability: text('capability', { mode: 'json' }).$type<RoutingCapability>(),
    waitMs: integer('wait_ms'),
    externalId: text('external_id'),
  },
  (table) => [index('message_routing_steps_message_idx').on(table.messageId, table.id)],
);
