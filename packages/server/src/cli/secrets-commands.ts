import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { generateEncryptionKey, parseEncryptionKey, writeKeyFile } from '../crypto/encryption-key';
import { FieldCipher } from '../crypto/field-cipher';
import { DomainError } from '../domain/domain-error';
import { type CliEnvironment, withStore } from './cli-context';
import { emit } from './output';

/** Options of `secrets rotate-key`. */
interface RotateKeyOptions {
  newKeyEnv?: string;
  newKeyFile?: string;
}

/** The new key: from an environment variable, a file, or generated. */
function newKeyOf(options: RotateKeyOptions, environment: CliEnvironment): string {
  if (options.newKeyEnv !== undefined) {
    const value = environment.env[options.newKeyEnv];
    if (!value)
      throw new DomainError('VALIDATION_ERROR', `--new-key-env: ${options.newKeyEnv} is unset`);
    return value.trim();
  }
  if (options.newKeyFile !== undefined) return readFileSync(options.newKeyFile, 'utf8').trim();
  return generateEncryptionKey();
}

/**
 * Adds `switchboard secrets rotate-key`: re-encrypts every secret at rest (instance configs and
 * ingress tokens, webhook secrets, provider state, server secrets) under a new key, all or
 * nothing. A key kept in the file next to the database is replaced in place; a key from
 * SWITCHBOARD_ENCRYPTION_KEY must then be changed by the operator (the new key is printed once).
 */
export function addSecretsCommands(program: Command, environment: CliEnvironment): void {
  const secrets = program
    .command('secrets')
    .description('Manage the encryption of secrets at rest');
  secrets
    .command('rotate-key')
    .description('Re-encrypt every stored secret under a new key (stop the server first)')
    .option('--new-key-env <name>', 'read the new key from this environment variable')
    .option('--new-key-file <path>', 'read the new key from this file')
    .action(async (options: RotateKeyOptions, command: Command) => {
      const newKey = newKeyOf(options, environment);
      let bytes: Buffer;
      try {
        bytes = parseEncryptionKey(newKey);
      } catch (error) {
        throw new DomainError('VALIDATION_ERROR', `new key: ${(error as Error).message}`);
      }
      const generated = options.newKeyEnv === undefined && options.newKeyFile === undefined;
      const result = await withStore(environment, async (context) => {
        const encryption = context.store.encryption;
        if (encryption.source === 'memory') {
          throw new DomainError('VALIDATION_ERROR', 'an in-memory database has nothing to re-key');
        }
        const rewritten = await context.store.reencryptSecrets(bytes);
        if (encryption.source === 'file' && encryption.path) writeKeyFile(encryption.path, newKey);
        return { source: encryption.source, path: encryption.path, rewritten };
      });
      const keyId = new FieldCipher(bytes).keyId;
      const json = {
        rewritten: result.rewritten,
        keyId,
        keySource: result.source,
        ...(result.source === 'environment' && generated ? { newKey } : {}),
      };
      emit(environment, Boolean(command.optsWithGlobals().json), json, () =>
        result.source === 'file'
          ? `Re-encrypted ${result.rewritten} secret(s) under key ${keyId}; ${result.path} now holds it. Back it up with the database, then start the server.`
          : [
              `Re-encrypted ${result.rewritten} secret(s) under key ${keyId}.`,
              'Set SWITCHBOARD_ENCRYPTION_KEY to the new key before starting the server',
              ...(generated ? ['(shown this one time):', '', `  ${newKey}`] : ['.']),
            ].join('\n'),
      );
    });
}
