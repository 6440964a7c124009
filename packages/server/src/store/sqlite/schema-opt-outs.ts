import { index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { OptOutSourceValue, OptOutStatusValue } from '../opt-out-repository';
import type { Channel } from '../store-types';
import { timestamp } from './columns';
import { customerIdColumn } from './schema';

/**
 * The opt-out ledger: per customer, sender number and recipient, whether the recipient opted out
 * (STOP) or back in (START). One row per pair, updated in place; listed by last change.
 */
export const optOuts = sqliteTable(
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
