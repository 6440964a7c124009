import type { ProviderAvailability } from '@switchboard/provider-kit';

/** One cached availability answer. */
export interface CapabilityCacheEntry {
  /** The customer who asked. */
  customerId: string;
  /** The instance whose provider answered. */
  instanceId: string;
  /** The address asked about. */
  address: string;
  /** The provider's answer. */
  availability: ProviderAvailability;
  /** When it was cached (the gateway's clock). */
  cachedAt: Date;
}

/** Cached availability answers of providers, per customer, instance and address. */
export interface CapabilityCacheRepository {
  /** The cached answer, however old. */
  find(
    customerId: string,
    instanceId: string,
    address: string,
  ): Promise<CapabilityCacheEntry | undefined>;
  /** Stores an answer, replacing the previous one. */
  put(entry: CapabilityCacheEntry): Promise<void>;
}
