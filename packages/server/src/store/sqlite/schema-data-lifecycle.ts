import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { ErasureCounts } from '../contact-erasure-repository';
import { timestamp } from './columns';
import { customers } from './schema';

/**
 * Each erasure of a contact: who asked, when, and how much went. The address is kept only as a
 * keyed hash (docs/decisions/0581-an-erasure-record-holds-a-keyed-hash.md), so the record of
 * forgetting someone does not remember them.
 */
export const contactErasures = sqliteTable(
  'contact_erasures',
  {
    id: text('id').primaryKey(),
    /** The customer whose data was erased; null for an operator's erasure across customers. */
    customerId: text('customer_id').references(() => customers.id),
    addressHash: text('address_hash').notNull(),
    /** `api_key:<id>` or `operator`. */
    requestedBy: text('requested_by').notNull(),
    counts: text('counts', { mode: 'json' }).$type<ErasureCounts>().notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [index('contact_erasures_customer_idx').on(table.customerId, table.createdAt)],
);

/**
 * A customer's retention periods, where the operator set one shorter than the deployment's
 * (milliseconds; null: the deployment's).
 */
export const customerRetention = sqliteTable('customer_retention', {
  customerId: text('customer_id')
    .primaryKey()
    .references(() => customers.id),
  eventLogMs: integer('event_log_ms'),
  deliveryLogMs: integer('delivery_log_ms'),
  inboundAttachmentsMs: integer('inbound_attachments_ms'),
  messageContentMs: integer('message_content_ms'),
  updatedAt: timestamp('updated_at').notNull(),
});
