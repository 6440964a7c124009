import Database from 'better-sqlite3';
import pg from 'pg';
import { resolveEncryptionKey } from '../../src/crypto/encryption-key';
import { FieldCipher } from '../../src/crypto/field-cipher';
import { TEST_ENCRYPTION_KEY } from './postgres-database';
import type { TestApp } from './test-app';

/** One place a searched text was found: table, column and the value (decrypted when sealed). */
export interface ColumnHit {
  table: string;
  column: string;
  value: string;
}

/** A cell as text: sealed values opened, JSON written out, bytes read as UTF-8. */
function textOf(value: unknown, cipher: FieldCipher): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') {
    return FieldCipher.isEncrypted(value) ? cipher.decrypt(value) : value;
  }
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Every cell of every table, as text, from a SQLite file. */
function sqliteCells(path: string, cipher: FieldCipher): ColumnHit[] {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'",
      )
      .all() as { name: string }[];
    const cells: ColumnHit[] = [];
    for (const { name } of tables) {
      for (const row of db.prepare(`select * from "${name}"`).all() as Record<string, unknown>[]) {
        for (const [column, value] of Object.entries(row)) {
          const text = textOf(value, cipher);
          if (text !== undefined) cells.push({ table: name, column, value: text });
        }
      }
    }
    return cells;
  } finally {
    db.close();
  }
}

/** Every cell of every table, as text, from a PostgreSQL database. */
async function postgresCells(url: string, cipher: FieldCipher): Promise<ColumnHit[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like '__drizzle%'",
    );
    const cells: ColumnHit[] = [];
    for (const { table_name: table } of tables) {
      const { rows } = await client.query<Record<string, unknown>>(`select * from "${table}"`);
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          const text = textOf(value, cipher);
          if (text !== undefined) cells.push({ table, column, value: text });
        }
      }
    }
    return cells;
  } finally {
    await client.end();
  }
}

/**
 * Searches every column of every table of the test app's database (SQLite or PostgreSQL) for
 * any of `needles`, seeing through sealed columns, and answers where each was found.
 */
export async function searchDatabase(t: TestApp, needles: readonly string[]): Promise<ColumnHit[]> {
  const url = t.config.databaseUrl;
  const postgres = url.startsWith('postgres');
  const key = postgres
    ? Buffer.from(TEST_ENCRYPTION_KEY, 'base64')
    : resolveEncryptionKey(t.config.encryptionKey, url).key;
  const cipher = new FieldCipher(key);
  const cells = postgres ? await postgresCells(url, cipher) : sqliteCells(url, cipher);
  return cells.filter((cell) =>
    needles.some((needle) => cell.value.toLowerCase().includes(needle)),
  );
}
