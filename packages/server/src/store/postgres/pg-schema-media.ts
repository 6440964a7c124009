import { index, integer, json, pgTable } from 'drizzle-orm/pg-core';
import { bytea, text, timestamp } from './pg-columns';

/** Converted outbound media, by input hash and conversion (the conversion cache). */
export const mediaRenditions = pgTable(
  'media_renditions',
  {
    id: text('id').primaryKey(),
    mimeType: text('mime_type').notNull(),
    codecs: json('codecs').$type<string[]>().notNull(),
    totalBytes: integer('total_bytes').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [index('media_renditions_created_at_idx').on(table.createdAt)],
);
