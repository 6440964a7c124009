import { getTableColumns, getTableName, is, Table } from 'drizzle-orm';
import { PgTable, getTableConfig as pgTableConfig } from 'drizzle-orm/pg-core';
import { type SQLiteTable, getTableConfig as sqliteTableConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as pgSchema from '../../src/store/postgres/pg-schema';
import * as pgCapabilities from '../../src/store/postgres/pg-schema-capabilities';
import * as pgChats from '../../src/store/postgres/pg-schema-chats';
import * as pgEvents from '../../src/store/postgres/pg-schema-events';
import * as pgMedia from '../../src/store/postgres/pg-schema-media';
import * as pgMessages from '../../src/store/postgres/pg-schema-messages';
import * as pgOptOuts from '../../src/store/postgres/pg-schema-opt-outs';
import * as pgProviderState from '../../src/store/postgres/pg-schema-provider-state';
import * as pgUnrouted from '../../src/store/postgres/pg-schema-unrouted';
import * as sqliteSchema from '../../src/store/sqlite/schema';
import * as sqliteCapabilities from '../../src/store/sqlite/schema-capabilities';
import * as sqliteChats from '../../src/store/sqlite/schema-chats';
import * as sqliteEvents from '../../src/store/sqlite/schema-events';
import * as sqliteMedia from '../../src/store/sqlite/schema-media';
import * as sqliteMessages from '../../src/store/sqlite/schema-messages';
import * as sqliteOptOuts from '../../src/store/sqlite/schema-opt-outs';
import * as sqliteProviderState from '../../src/store/sqlite/schema-provider-state';
import * as sqliteUnrouted from '../../src/store/sqlite/schema-unrouted';

/** The tables among a schema module's exports, by SQL name. */
function tables(modules: object[]): Map<string, Table> {
  const found = new Map<string, Table>();
  for (const module of modules) {
    for (const value of Object.values(module)) {
      if (is(value, Table)) found.set(getTableName(value), value);
    }
  }
  return found;
}

/** What must match across the dialects: columns (name, required, key) and index names. */
function shape(table: Table) {
  const columns = Object.values(getTableColumns(table))
    .map(
      (column) =>
        `${column.name}${column.notNull ? ' not null' : ''}${column.primary ? ' pk' : ''}`,
    )
    .sort();
  const config = is(table, PgTable)
    ? pgTableConfig(table)
    : sqliteTableConfig(table as SQLiteTable);
  const indexes = config.indexes.map((index) => index.config.name).sort();
  const primaryKeys = config.primaryKeys.map((key) => key.columns.map((c) => c.name).join(','));
  const foreignKeys = config.foreignKeys
    .map((key) =>
      key
        .reference()
        .columns.map((c) => c.name)
        .join(','),
    )
    .sort();
  return { columns, indexes, primaryKeys, foreignKeys };
}

describe('the PostgreSQL schema', () => {
  const sqlite = tables([
    sqliteSchema,
    sqliteCapabilities,
    sqliteChats,
    sqliteEvents,
    sqliteMedia,
    sqliteMessages,
    sqliteOptOuts,
    sqliteProviderState,
    sqliteUnrouted,
  ]);
  const postgres = tables([
    pgSchema,
    pgCapabilities,
    pgChats,
    pgEvents,
    pgMedia,
    pgMessages,
    pgOptOuts,
    pgProviderState,
    pgUnrouted,
  ]);

  it('has the same tables as the SQLite schema', () => {
    expect([...postgres.keys()].sort()).toEqual([...sqlite.keys()].sort());
  });

  it('gives every table the same columns, keys and indexes as on SQLite', () => {
    for (const [name, table] of sqlite) {
      const twin = postgres.get(name);
      expect(twin, name).toBeDefined();
      if (twin) expect(shape(twin), name).toEqual(shape(table));
    }
  });
});
