import type { CustomerRecord } from './customer-repository';

/** An API key as stored: its SHA-256 hash, never its plaintext. */
export interface ApiKeyRecord {
  /** UUID v7. */
  id: string;
  /** The customer the key belongs to. */
  customerId: string;
  /** Optional label. */
  name: string | null;
  /** The first characters of the key, for display. */
  prefix: string;
  /** Lowercase hex SHA-256 of the full key. */
  keyHash: string;
  /** Creation time. */
  createdAt: Date;
  /** Revocation time; null while the key is live. */
  revokedAt: Date | null;
}

/** What authenticating a request needs of a key: the key and its customer, read together. */
export interface ApiKeyWithCustomer {
  /** The key whose hash was presented, revoked or not. */
  apiKey: ApiKeyRecord;
  /** The key's customer, deleted or not; null if its row is missing. */
  customer: CustomerRecord | null;
}

/** API keys. Lookups are by key hash (authentication) or scoped by customer. */
export interface ApiKeyRepository {
  /** Stores a new key. */
  insert(key: ApiKeyRecord): Promise<void>;
  /**
   * The key whose hash this is, revoked or not, with its customer: one statement (a join), since
   * every authenticated request needs both.
   */
  findByHashWithCustomer(keyHash: string): Promise<ApiKeyWithCustomer | undefined>;
  /** The key with this id (operator view). */
  findById(id: string): Promise<ApiKeyRecord | undefined>;
  /** The customer's keys, revoked ones included, oldest first. */
  listByCustomer(customerId: string): Promise<ApiKeyRecord[]>;
  /** Sets `revokedAt` unless already set; returns the key as it now is. */
  revoke(id: string, at: Date): Promise<ApiKeyRecord | undefined>;
}
