import type { ProviderStateStore } from '@switchboard/provider-kit';
import type { ProviderStateRepository } from '../store/provider-state-repository';

/**
 * A {@link ProviderStateStore} in the database (`provider_state`), scoped to one instance: what
 * a provider keeps survives restarts (WhatsApp credentials, reconciliation cursors).
 */
export class StoreProviderStateStore implements ProviderStateStore {
  /** The state of `instanceId` in `repository`. */
  constructor(
    private readonly repository: ProviderStateRepository,
    private readonly instanceId: string,
  ) {}

  /** The value under `key`, or undefined. */
  get(key: string): Promise<string | undefined> {
    return this.repository.get(this.instanceId, key);
  }

  /** Stores `value` under `key`. */
  set(key: string, value: string): Promise<void> {
    return this.repository.set(this.instanceId, key, value);
  }

  /** The values of `keys` that exist, in one read. */
  getMany(keys: readonly string[]): Promise<Map<string, string>> {
    return this.repository.getMany(this.instanceId, keys);
  }

  /** Applies every change at once, all or nothing. */
  setMany(changes: ReadonlyMap<string, string | null>): Promise<void> {
    return this.repository.setMany(this.instanceId, changes);
  }

  /** Removes `key`. */
  delete(key: string): Promise<void> {
    return this.repository.delete(this.instanceId, key);
  }

  /** Removes every key that starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void> {
    return this.repository.deletePrefix(this.instanceId, prefix);
  }

  /** The keys that start with `prefix`. */
  keys(prefix: string): Promise<string[]> {
    return this.repository.keys(this.instanceId, prefix);
  }
}
