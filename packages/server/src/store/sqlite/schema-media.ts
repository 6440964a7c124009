import { blob, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamp } from './columns';

/** Converted outbound media, by input hash and conversion (the conversion cache). */
export const mediaRenditions = sqliteTable(
  'media_renditions',
  {
    id: text('id').primaryKey(),
    mimeType: text('mime_type').notNull(),
    codecs: text('codecs', { mode: 'json' }).$type<string[]>().notNull(),
    totalBytes: integer('total_bytes').notNull(),
    data: blob('data', { mode: 'buffer' }).notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (table) => [index('media_renditions_created_at_idx').on(table.createdAt)],
);
