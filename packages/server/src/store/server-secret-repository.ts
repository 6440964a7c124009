/** Server-wide generated secrets (not customer data), such as the attachment URL signing key. */
export interface ServerSecretRepository {
  /** The secret named `name`, or undefined. */
  get(name: string): Promise<string | undefined>;
  /**
   * Stores `value` under `name` unless a value exists, and returns the stored value: two
   * processes starting together agree on the first one written.
   */
  getOrCreate(name: string, value: string, at: Date): Promise<string>;
}
