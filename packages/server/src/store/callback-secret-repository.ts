/** A customer's signing secret of `callbackUrl` deliveries, as stored. */
export interface CallbackSecretRecord {
  /** The HMAC key, exactly as receivers use it. */
  secret: string;
  /** When it was made (first use or last rotation). */
  createdAt: Date;
}

/** Each customer's callback signing secret (sealed at rest like webhook secrets). */
export interface CallbackSecretRepository {
  /** The customer's secret, or undefined before its first use. */
  find(customerId: string): Promise<CallbackSecretRecord | undefined>;
  /**
   * Stores `record` unless the customer has a secret, and returns the stored one: two requests
   * making the first secret together agree on one.
   */
  findOrCreate(customerId: string, record: CallbackSecretRecord): Promise<CallbackSecretRecord>;
  /** Replaces the customer's secret (rotation). */
  replace(customerId: string, record: CallbackSecretRecord): Promise<void>;
}
