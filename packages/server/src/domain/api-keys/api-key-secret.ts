import { createHash, randomBytes } from 'node:crypto';

/** The fixed prefix of every Switchboard API key. */
const API_KEY_PREFIX = 'sk_';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters carry 256 bits; the spec's floor is 128. */
const SECRET_LENGTH = 43;
/** How many characters of the key are kept in clear to recognize it. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);

/** A new API key: the plaintext (shown once), its hash (stored) and its display prefix. */
export interface GeneratedApiKey {
  /** The full key, `sk_` + 43 base62 characters. */
  plaintext: string;
  /** Lowercase hex SHA-256 of the plaintext. */
  hash: string;
  /** The first characters, for display. */
  prefix: string;
}

/**
 * Generates an API key from the CSPRNG: 43 uniformly drawn base62 characters (rejection
 * sampling, so no character is more likely than another).
 */
export function generateApiKey(): GeneratedApiKey {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 × 62: bytes at or above it would bias the first characters of the alphabet.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62];
    }
  }
  const plaintext = `${API_KEY_PREFIX}${secret}`;
  return { plaintext, hash: hashApiKey(plaintext), prefix: displayPrefix(plaintext) };
}

/** The SHA-256 hash under which a key is stored and looked up. */
export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

/** The part of a key that may be shown after creation. */
function displayPrefix(plaintext: string): string {
  return plaintext.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** True when `value` has the shape of a Switchboard API key (it may still be unknown). */
export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}
