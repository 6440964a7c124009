import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { EncryptionKeyError } from './field-cipher';

/** Where the key of a database comes from. */
type EncryptionKeySource = 'environment' | 'file' | 'memory';

/** The key that encrypts a database's secrets, and where it came from. */
export interface ResolvedEncryptionKey {
  /** The 32 key bytes. */
  key: Buffer;
  /** `environment` (SWITCHBOARD_ENCRYPTION_KEY), `file` (next to the database) or `memory`. */
  source: EncryptionKeySource;
  /** The key file, when the key lives in one. */
  path?: string;
}

/**
 * Parses a 32-byte key written as 64 hex digits or as base64 (standard or url-safe).
 * @throws {EncryptionKeyError} when it is neither, or not 32 bytes.
 */
export function parseEncryptionKey(text: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
      ? Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : undefined;
  if (key?.byteLength !== 32) {
    throw new EncryptionKeyError(
      'an encryption key is 32 bytes written as 64 hex digits or 44 base64 characters (make one with `openssl rand -base64 32`)',
    );
  }
  return key;
}

/** A new random key, as the key file and SWITCHBOARD_ENCRYPTION_KEY write it (base64). */
export function generateEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

/** The key file of a SQLite database: the database path plus `.key`. */
function keyFileOf(databasePath: string): string {
  return `${databasePath}.key`;
}

/**
 * The key of a database: `configured` (SWITCHBOARD_ENCRYPTION_KEY) when set; otherwise the key
 * file next to the database, created with 0600 permissions on first start (back it up with the
 * database); a throwaway key for an in-memory database.
 */
export function resolveEncryptionKey(
  configured: string | undefined,
  databasePath: string,
): ResolvedEncryptionKey {
  if (configured !== undefined)
    return { key: parseEncryptionKey(configured), source: 'environment' };
  if (databasePath === ':memory:') return { key: randomBytes(32), source: 'memory' };
  const path = keyFileOf(databasePath);
  try {
    // `wx`: of two processes starting at once, one creates the file and the other reads it.
    writeFileSync(path, `${generateEncryptionKey()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { key: parseEncryptionKey(readFileSync(path, 'utf8')), source: 'file', path };
}

/** Replaces the key file's key (after a re-encryption), keeping its 0600 permissions. */
export function writeKeyFile(path: string, key: string): void {
  const temporary = `${path}.new`;
  writeFileSync(temporary, `${key}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
