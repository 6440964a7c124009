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
