import { sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-cipher';
import type { PgOrm } from './pg-executor';

/** Every column that holds secrets, with the key columns of its table. */
const SEALED_COLUMNS = [
  { table: 'instances', keys: ['id'], column: 'config' },
  { table: 'instances', keys: ['id'], column: 'ingress_token' },
  { table: 'webhooks', keys: ['id'], column: 'secret' },
  { table: 'callback_secrets', keys: ['customer_id'], column: 'secret' },
  { table: 'provider_state', keys: ['instance_id', 'key'], column: 'value' },
  { table: 'server_secrets', keys: ['name'], column: 'value' },
  { table: 'unrouted_inbound', keys: ['id'], column: 'payload' },
] as const;

/** The server secret that proves the configured key is the database's. */
const KEY_CHECK = 'encryption-key-check';

/**
 * Run when the store opens: checks that `cipher` holds the key this database was written with (a
 * wrong key fails here, at start, not at the first webhook). The first process to open a new
 * database writes the check; processes starting at the same time all read the same one.
 * @throws {EncryptionKeyError} when the database was written with another key.
 */
export async function checkEncryptionKey(db: PgOrm, cipher: FieldCipher): Promise<void> {
  await db.execute(
    sql`insert into server_secrets (name, value, created_at) values (${KEY_CHECK}, ${cipher.encrypt(KEY_CHECK)}, now()) on conflict do nothing`,
  );
  const { rows } = await db.execute<{ value: string }>(
    sql`select value from server_secrets where name = ${KEY_CHECK}`,
  );
  const [check] = rows;
  if (!check) throw new Error('the encryption key check could not be stored');
  cipher.decrypt(check.value);
}

/**
 * Re-encrypts every secret of the database from the key of `from` to the key of `to`. Run it
 * inside one transaction (all or nothing). Answers how many values were rewritten.
 * @throws {EncryptionKeyError} when a value was not written with `from`'s key.
 */
export async function reencryptSecrets(
  db: PgOrm,
  from: FieldCipher,
  to: FieldCipher,
): Promise<number> {
  let rewritten = 0;
  for (const { table, keys, column } of SEALED_COLUMNS) {
    const keyList = sql.raw(keys.map((key) => `"${key}"`).join(', '));
    const { rows } = await db.execute<Record<string, string>>(
      sql`select ${keyList}, ${sql.raw(`"${column}"`)} as sealed from ${sql.raw(`"${table}"`)} where ${sql.raw(`"${column}"`)} is not null for update`,
    );
    for (const row of rows) {
      const sealed = row.sealed as string;
      const match = sql.join(
        keys.map((key) => sql`${sql.raw(`"${key}"`)} = ${row[key]}`),
        sql` and `,
      );
      await db.execute(
        sql`update ${sql.raw(`"${table}"`)} set ${sql.raw(`"${column}"`)} = ${to.encrypt(from.decrypt(sealed))} where ${match}`,
      );
      rewritten += 1;
    }
  }
  return rewritten;
}
