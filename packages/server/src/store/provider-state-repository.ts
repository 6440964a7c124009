/** Durable key-value state of provider instances, scoped by instance. */
export interface ProviderStateRepository {
  /** The value under `key` for the instance. */
  get(instanceId: string, key: string): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing any previous value. */
  set(instanceId: string, key: string, value: string): Promise<void>;
  /** The values of the instance's `keys` that exist. */
  getMany(instanceId: string, keys: readonly string[]): Promise<Map<string, string>>;
  /** Applies every change (null removes the key) in one transaction: all or nothing. */
  setMany(instanceId: string, changes: ReadonlyMap<string, string | null>): Promise<void>;
  /** Removes `key`. */
  delete(instanceId: string, key: string): Promise<void>;
  /** Removes every key of the instance that starts with `prefix`. */
  deletePrefix(instanceId: string, prefix: string): Promise<void>;
  /** The instance's keys that start with `prefix`. */
  keys(instanceId: string, prefix: string): Promise<string[]>;
}
