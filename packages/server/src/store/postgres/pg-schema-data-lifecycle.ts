import { bigint, index, json, pgTable } from 'drizzle-orm/pg-core';
import type { ErasureCounts } from '../contact-erasure-repository';
import { text, timestamp } from './pg-columns';
import { customers } from './pg-schema';

/**
 * Each erasure of a contact: who asked, when, and how much went. The address is kept only as a
 * keyed hash (docs/decisions/0581-an-erasure-record-holds-a-keyed-hash.md).
 */
export const contactErasures = pgTable(
  'contact_erasures',
  {
    id: text('id').primaryKey(),
    /** The customer whose data was erased; null for an operator's erasure across customers. */
    customerId: text('customer_id').references(() => customers.id),
    addressHash: text('address_hash').notNull(),
    /** `api_key:<id>` or `operator`. */
    requestedBy: text('requested_by').notNull(),
    counts: json('counts').$type<ErasureCounts>().notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [index('contact_erasures_customer_idx').on(table.customerId, table.createdAt)],
);

/** A customer's retention periods shorter than the deployment's (milliseconds; null: the deployment's). */
export const customerRetention = pgTable('customer_retention', {
  customerId: text('customer_id')
    .primaryKey()
    .references(() => customers.id),
  eventLogMs: bigint('event_log_ms', { mode: 'number' }),
  deliveryLogMs: bigint('delivery_log_ms', { mode: 'number' }),
  inboundAttachmentsMs: bigint('inbound_attachments_ms', { mode: 'number' }),
  messageContentMs: bigint('message_content_ms', { mode: 'number' }),
  updatedAt: timestamp('updated_at').notNull(),
});
