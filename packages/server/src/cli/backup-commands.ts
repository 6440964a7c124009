import { copyFileSync, existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config';
import { resolveEncryptionKey } from '../crypto/encryption-key';
import { FieldCipher } from '../crypto/field-cipher';
import { claimServerLock } from '../server-lock';
import { isPostgresUrl } from '../store/open-store';
import { backupSqlite, restoreSqlite } from '../store/sqlite/sqlite-backup';
import type { CliEnvironment } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';
import { emit } from './output';

/** The SQLite file of the configuration, or a refusal naming the PostgreSQL tools. */
function sqliteFileOf(environment: CliEnvironment, verb: string): { file: string; key?: string } {
  const config = loadConfig(environment.env);
  if (isPostgresUrl(config.databaseUrl)) {
    throw new CliRefusalError(
      `switchboard ${verb} works on a SQLite database; on PostgreSQL use pg_dump / pg_restore or point-in-time recovery, and keep SWITCHBOARD_ENCRYPTION_KEY with it (docs/operations.md, "Backup and restore")`,
    );
  }
  if (config.databaseUrl.startsWith(':memory:')) {
    throw new CliRefusalError(`an in-memory database has nothing to ${verb}`);
  }
  return {
    file: config.databaseUrl,
    ...(config.encryptionKey ? { key: config.encryptionKey } : {}),
  };
}

/** The key file of a database file (`<database>.key`). */
function keyFileOf(path: string): string {
  return `${path}.key`;
}

/**
 * Adds `switchboard backup <file>` (an online, consistent copy of a running SQLite deployment,
 * with its key file) and `switchboard restore <file>` (puts a backup in place; refused while a
 * server holds the database).
 */
export function addBackupCommands(program: Command, environment: CliEnvironment): void {
  program
    .command('backup')
    .description('Copy the SQLite database while the server runs, with its encryption key file')
    .argument('<file>', 'where to write the copy (must not exist); the key goes to <file>.key')
    .action((file: string, _options: unknown, command: Command) => {
      const { file: database, key } = sqliteFileOf(environment, 'backup');
      if (!existsSync(database)) throw new CliRefusalError(`No database at ${database}`);
      environment.stderr.write(`Database: ${database}\n`);
      const result = backupSqlite(database, file);
      const resolved = key ? undefined : keyFileOf(database);
      if (resolved && existsSync(resolved)) copyFileSync(resolved, keyFileOf(file));
      const keyId = new FieldCipher(resolveEncryptionKey(key, database).key).keyId;
      const json = { ...result, keyId, keyFile: resolved ? keyFileOf(file) : null };
      emit(environment, Boolean(command.optsWithGlobals().json), json, () =>
        [
          `Backed up ${result.messages} message(s) to ${file} (${result.bytes} bytes, integrity ok).`,
          resolved
            ? `Its encryption key (${keyId}) is in ${keyFileOf(file)}: keep the two together, and apart from other copies' keys.`
            : `Its secrets are encrypted with SWITCHBOARD_ENCRYPTION_KEY (key ${keyId}), which is not in the backup: keep that key with it.`,
        ].join('\n'),
      );
    });
  program
    .command('restore')
    .description('Put a backup in place of the SQLite database (stop the server first)')
    .argument('<file>', 'the backup (its key file <file>.key, when present, is restored too)')
    .option('--force', 'replace an existing database')
    .action((file: string, options: { force?: boolean }, command: Command) => {
      const { file: database } = sqliteFileOf(environment, 'restore');
      if (!existsSync(file)) throw new CliRefusalError(`No backup at ${file}`);
      if (existsSync(database) && !options.force) {
        throw new CliRefusalError(
          `${database} exists: pass --force to replace it with the backup (stop the server first)`,
        );
      }
      // Held for the restore: a server running on the database refuses it, one starting waits.
      let lock: ReturnType<typeof claimServerLock>;
      try {
        lock = claimServerLock(database);
      } catch (error) {
        throw new CliRefusalError(`refusing to restore: ${(error as Error).message}`);
      }
      try {
        restoreSqlite(file, database);
        if (existsSync(keyFileOf(file))) copyFileSync(keyFileOf(file), keyFileOf(database));
      } finally {
        lock.release();
      }
      emit(
        environment,
        Boolean(command.optsWithGlobals().json),
        { restored: database, from: file },
        () =>
          `Restored ${file} to ${database}. Start the server: it applies pending migrations and checks the key.`,
      );
    });
}
