/**
 * Durable key-value state the gateway keeps for one provider instance: WhatsApp credentials and
 * Signal keys (Baileys asks for them by type and id, and needs every update persisted at once), a
 * BlueBubbles reconciliation cursor. Providers never import the store; the gateway hands them this
 * at start, already scoped to the instance.
 */
export interface ProviderStateStore {
  /** The value under `key`, or undefined. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing any previous value. */
  set(key: string, value: string): Promise<void>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The values of `keys` that exist, in one read. */
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  /**
   * Applies every change at once, all or nothing: a value stores it, null removes the key. Baileys
   * writes a batch of Signal keys per update, and a half-written batch breaks the session.
   */
  setMany(changes: ReadonlyMap<string, string | null>): Promise<void>;
  /** Removes every key that starts with `prefix` (a logged-out WhatsApp session's keys). */
  deletePrefix(prefix: string): Promise<void>;
  /** The keys that start with `prefix`, in no particular order. */
  keys(prefix: string): Promise<string[]>;
}

/** A {@link ProviderStateStore} in memory: for tests, and for instances that need no durability. */
export class MemoryProviderStateStore implements ProviderStateStore {
  readonly #values = new Map<string, string>();

  /** The value under `key`, or undefined. */
  async get(key: string): Promise<string | undefined> {
    return this.#values.get(key);
  }

  /** Stores `value` under `key`. */
  async set(key: string, value: string): Promise<void> {
    this.#values.set(key, value);
  }

  /** Removes `key`. */
  async delete(key: string): Promise<void> {
    this.#values.delete(key);
  }

  /** The values of `keys` that exist. */
  async getMany(keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const key of keys) {
      const value = this.#values.get(key);
      if (value !== undefined) found.set(key, value);
    }
    return found;
  }

  /** Applies every change at once. */
  async setMany(changes: ReadonlyMap<string, string | null>): Promise<void> {
    for (const [key, value] of changes) {
      if (value === null) this.#values.delete(key);
      else this.#values.set(key, value);
    }
  }

  /** Removes every key that starts with `prefix`. */
  async deletePrefix(prefix: string): Promise<void> {
    for (const key of [...this.#values.keys()]) {
      if (key.startsWith(prefix)) this.#values.delete(key);
    }
  }

  /** The keys that start with `prefix`. */
  async keys(prefix: string): Promise<string[]> {
    return [...this.#values.keys()].filter((key) => key.startsWith(prefix));
  }
}
