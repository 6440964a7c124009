import type {
  Channel,
  RoutingCapability,
  RoutingDecision,
  RoutingReason,
} from '@switchboard/contract';
import { bigserial, index, integer, json, pgTable } from 'drizzle-orm/pg-core';
import { text, timestamp } from './pg-columns';
import { customerIdColumn } from './pg-schema';
import { messages } from './pg-schema-messages';

/**
 * The routing trace of each message: one row per channel, instance or wait considered, appended
 * in the order they happened (`id` grows), read back by message.
 */
export const routingSteps = pgTable(
  'message_routing_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
    capability: json('capability').$type<RoutingCapability>(),
    waitMs: integer('wait_ms'),
    externalId: text('external_id'),
  },
  (table) => [index('message_routing_steps_message_idx').on(table.messageId, table.id)],
);
