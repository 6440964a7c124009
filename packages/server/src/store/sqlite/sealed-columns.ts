import type Database from 'better-sqlite3';
import { FieldCipher } from '../../crypto/field-cipher';
import { newIngressToken } from '../../ids';

/** Every column that holds secrets: the store writes them through the field cipher. */
const SEALED_COLUMNS = [
  { table: 'instances', column: 'config' },
  { table: 'instances', column: 'ingress_token' },
  { table: 'webhooks', column: 'secret' },
  { table: 'callback_secrets', column: 'secret' },
  { table: 'provider_state', column: 'value' },
  { table: 'server_secrets', column: 'value' },
  { table: 'unrouted_inbound', column: 'payload' },
] as const;

/** The server secret that proves the configured key is the database's. */
const KEY_CHECK = 'encryption-key-check';

/**
 * Rewrites every sealed value through `transform` in one transaction; `onlyPlain` limits it to
 * values no cipher wrote (rows from before encryption). Answers how many values changed.
 */
function resealValues(
  sqlite: Database.Database,
  transform: (value: string) => string,
  onlyPlain: boolean,
): number {
  let changed = 0;
  sqlite.transaction(() => {
    for (const { table, column } of SEALED_COLUMNS) {
      const rows = sqlite
        .prepare(`SELECT rowid AS id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL`)
        .all() as { id: number; value: string }[];
      const update = sqlite.prepare(`UPDATE ${table} SET ${column} = ? WHERE rowid = ?`);
      for (const row of rows) {
        if (onlyPlain && FieldCipher.isEncrypted(row.value)) continue;
        update.run(transform(row.value), row.id);
        changed += 1;
      }
    }
  })();
  return changed;
}

/**
 * Run when the store opens: checks that `cipher` holds the key this database was written with
 * (a wrong key fails here, at start, not at the first webhook), encrypts values written before
 * encryption existed, and gives instances from before ingress tokens one.
 * @throws {EncryptionKeyError} when the database was written with another key.
 */
export function sealLegacySecrets(sqlite: Database.Database, cipher: FieldCipher): void {
  const check = sqlite.prepare('SELECT value FROM server_secrets WHERE name = ?').get(KEY_CHECK) as
    | { value: string }
    | undefined;
  if (check) cipher.decrypt(check.value);
  else {
    sqlite
      .prepare('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)')
      .run(KEY_CHECK, cipher.encrypt(KEY_CHECK), Date.now());
  }
  const tokenless = sqlite
    .prepare('SELECT id FROM instances WHERE ingress_token IS NULL')
    .all() as {
    id: string;
  }[];
  const setToken = sqlite.prepare('UPDATE instances SET ingress_token = ? WHERE id = ?');
  for (const { id } of tokenless) setToken.run(cipher.encrypt(newIngressToken()), id);
  resealValues(sqlite, (value) => cipher.encrypt(value), true);
}

/**
 * Re-encrypts every secret of the database from the key of `from` to the key of `to`, in one
 * transaction (all or nothing). Answers how many values were rewritten.
 * @throws {EncryptionKeyError} when a value was not written with `from`'s key.
 */
export function reencryptSecrets(
  sqlite: Database.Database,
  from: FieldCipher,
  to: FieldCipher,
): number {
  return resealValues(sqlite, (value) => to.encrypt(from.decrypt(value)), false);
}
