import type { CustomerSettings } from '@switchboard/contract';
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ChannelInstanceMap, NumberHealthOverride } from '../number-repository';
import type { Channel, HealthStatusValue, InstanceProvider } from '../store-types';
import { timestamp } from './columns';

/** Customer accounts; deleting one only sets `deleted_at`, so its keys can answer 403. */
export const customers = sqliteTable('customers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  settings: text('settings', { mode: 'json' }).$type<CustomerSettings>().notNull(),
  createdAt: timestamp('created_at').notNull(),
  deletedAt: timestamp('deleted_at'),
});

/** API keys, stored as SHA-256 hashes. */
export const apiKeys = sqliteTable(
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

/** Provider instances. */
export const instances = sqliteTable('instances', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  provider: text('provider').$type<InstanceProvider>().notNull(),
  channels: text('channels', { mode: 'json' }).$type<Channel[]>().notNull(),
  /** The provider settings as JSON, encrypted (`enc:v1:…`) by the store's field cipher. */
  config: text('config').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  /** The token of the instance's ingress URL, encrypted; null only on rows older than it. */
  ingressToken: text('ingress_token'),
  healthStatus: text('health_status').$type<HealthStatusValue>().notNull().default('unknown'),
  healthWarnings: text('health_warnings', { mode: 'json' })
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`),
  healthCheckedAt: timestamp('health_checked_at'),
  createdAt: timestamp('created_at').notNull(),
  /** Last change of name, channels, config, `enabled` or token; null on rows older than it. */
  updatedAt: timestamp('updated_at'),
  /** Set when the operator deleted it: kept for its messages' history, hidden from lists. */
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
export const senderNumbers = sqliteTable(
  'sender_numbers',
  {
    id: text('id').primaryKey(),
    customerId: customerIdColumn(),
    instanceId: instanceIdColumn(),
    phoneNumber: text('phone_number').notNull().unique(),
    email: text('email').unique(),
    /** Channels served by another instance than `instance_id`, as `{channel: instanceId}`. */
    channelInstances: text('channel_instances', { mode: 'json' })
      .$type<ChannelInstanceMap>()
      .notNull()
      .default(sql`'{}'`),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    /** A health the owning customer simulated for this number (sandbox); null when none. */
    sandboxHealth: text('sandbox_health', { mode: 'json' }).$type<NumberHealthOverride>(),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [
    index('sender_numbers_customer_id_idx').on(table.customerId),
    uniqueIndex('sender_numbers_one_default_per_customer')
      .on(table.customerId)
      .where(sql`${table.isDefault} = 1`),
  ],
);
