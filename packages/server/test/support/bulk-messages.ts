import Database from 'better-sqlite3';
import { getTableColumns } from 'drizzle-orm';
import pg from 'pg';
import { messages as pgMessages } from '../../src/store/postgres/pg-schema-messages';
import { messages as sqliteMessages } from '../../src/store/sqlite/schema-messages';
import type { TestApp } from './test-app';

/** A column's value in each copy, by store; the others are the template's own. */
const COPIED: Record<string, { sqlite: string; postgres: string }> = {
  // Time-ordered ids, like the server's: `msg_<uuid v7 shape>` with the copy's number in its tail.
  id: {
    sqlite: `'msg_00000000-0000-7000-8000-' || printf('%012d', n.i)`,
    postgres: `'msg_00000000-0000-7000-8000-' || lpad(n.i::text, 12, '0')`,
  },
  idempotency_key: { sqlite: 'NULL', postgres: 'NULL' },
  created_at: {
    sqlite: 'm.created_at - n.i * 1000',
    postgres: `m.created_at - n.i * interval '1 second'`,
  },
  updated_at: {
    sqlite: 'm.created_at - n.i * 1000',
    postgres: `m.created_at - n.i * interval '1 second'`,
  },
};

/** The column list and the select list that copies the template `count` times. */
function copyLists(names: string[], store: 'sqlite' | 'postgres'): [string, string] {
  const columns = names.map((name) => `"${name}"`).join(', ');
  const values = names.map((name) => COPIED[name]?.[store] ?? `m."${name}"`).join(', ');
  return [columns, values];
}

/**
 * Writes `count` copies of the stored message `templateId`, one second apart going back from it,
 * in one SQL statement on the test app's own database (SQLite or PostgreSQL): a large history in
 * a second or two, where as many API sends, or store inserts, would take minutes.
 */
export async function seedMessages(t: TestApp, templateId: string, count: number): Promise<void> {
  if (t.config.databaseUrl.startsWith('postgres')) {
    const names = Object.values(getTableColumns(pgMessages)).map((column) => column.name);
    const [columns, values] = copyLists(names, 'postgres');
    const client = new pg.Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO messages (${columns}) SELECT ${values} FROM generate_series(1, $1::int) AS n(i), messages m WHERE m.id = $2`,
        [count, templateId],
      );
      // As autovacuum would soon: the planner's statistics know the table's new size.
      await client.query('ANALYZE messages');
    } finally {
      await client.end();
    }
    return;
  }
  const names = Object.values(getTableColumns(sqliteMessages)).map((column) => column.name);
  const [columns, values] = copyLists(names, 'sqlite');
  const db = new Database(t.databasePath);
  try {
    db.pragma('busy_timeout = 10000');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO messages (${columns}) SELECT ${values} FROM n, messages m WHERE m.id = ?`,
    ).run(count, templateId);
    db.exec('ANALYZE messages');
  } finally {
    db.close();
  }
}
