import { index, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import type { OptOutSourceValue, OptOutStatusValue } from '../opt-out-repository';
import type { Channel } from '../store-types';
import { text, timestamp } from './pg-columns';
import { customerIdColumn } from './pg-schema';

/**
 * The opt-out ledger: per customer, sender number and recipient, whether the recipient opted out
 * (STOP) or back in (START). One row per pair, updated in place; listed by last change.
 */
export const optOuts = pgTable(
  'opt_outs',
  {
    customerId: customerIdColumn(),
    sender: text('sender').notNull(),
    recipient: text('recipient').notNull(),
    status: text('status').$type<OptOutStatusValue>().notNull(),
    source: text('source').$type<OptOutSourceValue>().notNull(),
    keyword: text('keyword'),
    channel: text('channel').$type<Channel>().notNull(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.customerId, table.sender, table.recipient] }),
    index('opt_outs_customer_updated_idx').on(table.customerId, table.updatedAt),
  ],
);
