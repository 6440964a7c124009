import type { ProviderAvailability } from '@switchboard/provider-kit';
import type { Clock } from '../../clock';
import type { ProviderHub } from '../../providers/provider-hub';
import type { Store } from '../../store/store';
import { toDomainError } from '../provider-failure';

/** An availability answer and whether it came from the cache. */
export interface CachedAvailability {
  /** What the instance's provider knows about the address. */
  availability: ProviderAvailability;
  /** True when served from the cache. */
  cached: boolean;
}

/**
 * Which channels an instance reaches an address on, asked of its provider and cached per
 * customer, instance and address for `ttlMs` (`CAPABILITY_CACHE_TTL_MS`): capability checks and
 * the send's reachability rule share it. Answers the provider marks `transient` (a degraded
 * upstream) and failed probes are never cached.
 */
export class AvailabilityCache {
  /** A cache over `store`, asking `providers` on a miss. */
  constructor(
    private readonly store: Store,
    private readonly providers: ProviderHub,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /**
   * The answer for `address` through `instanceId`, from the cache while it is fresh.
   * @throws {DomainError} with the provider's code (such as PROVIDER_TIMEOUT) when a probe fails.
   */
  async lookup(
    customerId: string,
    instanceId: string,
    address: string,
    from?: string,
  ): Promise<CachedAvailability> {
    const now = this.clock.now();
    const entry = await this.store.capabilityCache.find(customerId, instanceId, address);
    if (entry && now - entry.cachedAt.getTime() < this.ttlMs) {
      return { availability: entry.availability, cached: true };
    }
    let availability: ProviderAvailability;
    try {
      const provider = await this.providers.provider(instanceId);
      availability = await provider.checkAvailability(
        from === undefined ? { address } : { address, from },
      );
    } catch (error) {
      throw toDomainError(error);
    }
    // Only definite answers are kept: an answer caused by a degraded upstream is used once.
    if (availability.transient) return { availability, cached: false };
    await this.store.capabilityCache.put({
      customerId,
      instanceId,
      address,
      availability,
      cachedAt: new Date(now),
    });
    return { availability, cached: false };
  }
}
