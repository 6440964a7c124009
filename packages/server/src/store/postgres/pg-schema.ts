import type { CustomerSettings } from '@switchboard/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, json, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ChannelInstanceMap, NumberHealthOverride } from '../number-repository';
import type { Channel, HealthStatusValue, InstanceProvider } from '../store-types';
import { text, timestamp } from './pg-columns';

// The PostgreSQL twin of `../sqlite/schema.ts`: the same tables, columns and indexes, in
// PostgreSQL's types (timestamptz, boolean, json, bytea). JSON columns are `json`, not `jsonb`,
// so a value reads back with its keys in the order they were written.

/** Customer accounts; deleting one only sets `deleted_at`, so its keys can answer 403. */
export const customers = pgTable('customers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  settings: json('settings').$type<CustomerSettings>().notNull(),
  createdAt: timestamp('created_at').notNull(),
  deletedAt: timestamp('deleted_at'),
});

/** API keys, stored as SHA-256 hashes. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    name: text('name'),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at').notNull(),
    revokedAt: timestamp('revoked_at'),
  },
  (table) => [index('api_keys_customer_id_idx').on(table.customerId)],
);

/** Provider instances; `config` and `ingress_token` are sealed by the store's field cipher. */
export const instances = pgTable('instances', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  provider: text('provider').$type<InstanceProvider>().notNull(),
  channels: json('channels').$type<Channel[]>().notNull(),
  config: text('config').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  ingressToken: text('ingress_token'),
  healthStatus: text('health_status').$type<HealthStatusValue>().notNull().default('unknown'),
  healthWarnings: json('health_warnings').$type<string[]>().notNull().default([]),
  healthCheckedAt: timestamp('health_checked_at'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at'),
  deletedAt: timestamp('deleted_at'),
});

/** A required `customer_id` column referencing `customers`: every customer-owned row has one. */
export function customerIdColumn() {
  return text('customer_id')
    .notNull()
    .references(() => customers.id);
}

/** A required `instance_id` column referencing `instances`. */
export function instanceIdColumn() {
  return text('instance_id')
    .notNull()
    .references(() => instances.id);
}

/** Sender addresses: unique across customers; at most one default per customer. */
export const senderNumbers = pgTable(
  'sender_numbers',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    instanceId: instanceIdColumn(),
    phoneNumber: text('phone_number').notNull().unique(),
    email: text('email').unique(),
    channelInstances: json('channel_instances').$type<ChannelInstanceMap>().notNull().default({}),
    isDefault: boolean('is_default').notNull().default(false),
    sandboxHealth: json('sandbox_health').$type<NumberHealthOverride>(),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [
    index('sender_numbers_customer_id_idx').on(table.customerId),
    uniqueIndex('sender_numbers_one_default_per_customer')
      .on(table.customerId)
      .where(sql`${table.isDefault}`),
  ],
);
