import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The prefix of every value the cipher wrote: `enc:v1:<key id>:<base64url(iv | tag | data)>`. */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Decrypted values kept, so signing every webhook delivery does not decrypt its secret again. */
const CACHE_LIMIT = 4096;

/** A value could not be decrypted: another key wrote it, or it was altered. */
export class EncryptionKeyError extends Error {
  override readonly name = 'EncryptionKeyError';
}

/**
 * Encrypts the secrets the store keeps (instance configs and ingress tokens, webhook secrets,
 * provider state, server secrets) with AES-256-GCM under one 32-byte key. Values the cipher did
 * not write (rows from before encryption) read back as they are, and the store rewrites them
 * encrypted when it opens.
 */
export class FieldCipher {
  /** A short fingerprint of the key, written into every value to name the key it needs. */
  readonly keyId: string;
  readonly #key: Buffer;
  readonly #plain = new Map<string, string>();

  /** A cipher over a 32-byte key. */
  constructor(key: Uint8Array) {
    if (key.byteLength !== 32) throw new EncryptionKeyError('the encryption key must be 32 bytes');
    this.#key = Buffer.from(key);
    this.keyId = createHash('sha256').update(this.#key).digest('hex').slice(0, 8);
  }

  /** True when `stored` was written by a cipher (under any key). */
  static isEncrypted(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** Encrypts `plain` with a fresh random IV. */
  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
    return `${PREFIX}${this.keyId}:${sealed}`;
  }

  /**
   * The plaintext of a stored value; a value without the cipher's prefix is returned as is.
   * @throws {EncryptionKeyError} when another key wrote it, or it was tampered with.
   */
  decrypt(stored: string): string {
    if (!FieldCipher.isEncrypted(stored)) return stored;
    const cached = this.#plain.get(stored);
    if (cached !== undefined) return cached;
    const rest = stored.slice(PREFIX.length);
    const separator = rest.indexOf(':');
    const keyId = rest.slice(0, separator);
    if (separator < 0 || keyId !== this.keyId) {
      throw new EncryptionKeyError(
        `a stored secret was encrypted with key ${keyId || '(unknown)'}, but the configured key is ${this.keyId}: set SWITCHBOARD_ENCRYPTION_KEY (or the key file next to the database) to the key this database was written with`,
      );
    }
    const sealed = Buffer.from(rest.slice(separator + 1), 'base64url');
    let plain: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, sealed.subarray(0, IV_BYTES));
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      plain = Buffer.concat([
        decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch (error) {
      throw new EncryptionKeyError('a stored secret failed its integrity check', { cause: error });
    }
    if (this.#plain.size >= CACHE_LIMIT) this.#plain.clear();
    this.#plain.set(stored, plain);
    return plain;
  }

  /** Decrypts `stored` when present. */
  decryptNullable(stored: string | null): string | null {
    return stored === null ? null : this.decrypt(stored);
  }
}
