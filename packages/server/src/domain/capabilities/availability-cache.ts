import type { ProviderAvailability } from '@switchboard/provider-kit';
import { LRUCache } from 'lru-cache';
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
  /** How old the answer is, in milliseconds (0 when just asked of the provider). */
  ageMs: number;
}

/** Most answers this process keeps in memory in front of the store's cache. */
const IN_MEMORY_ENTRIES = 4096;

interface RememberedAnswer {
  availability: ProviderAvailability;
  cachedAt: number;
}

/**
 * Which channels an instance reaches an address on, asked of its provider and cached per
 * customer, instance and address for `ttlMs` (`CAPABILITY_CACHE_TTL_MS`): capability checks and
 * the send's reachability rule share it. Answers the provider marks `transient` (a degraded
 * upstream) and failed probes are never cached. The answers used most recently are also kept in
 * this process's memory (at most 4,096, each until the same expiry as in the store), which spares
 * a send's two look-ups their reads: an answer another process stored meanwhile is as fresh as
 * the one remembered, so nothing is served that the store's cache would not serve.
 */
export class AvailabilityCache {
  /** Remembered answers by customer, instance and address; the least recently used first out. */
  readonly #recent = new LRUCache<string, RememberedAnswer>({ max: IN_MEMORY_ENTRIES });

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
    const key = `${customerId}\n${instanceId}\n${address}`;
    const remembered = this.#recent.get(key);
    if (remembered && now - remembered.cachedAt < this.ttlMs) {
      return {
        availability: remembered.availability,
        cached: true,
        ageMs: now - remembered.cachedAt,
      };
    }
    const entry = await this.store.capabilityCache.find(customerId, instanceId, address);
    if (entry && now - entry.cachedAt.getTime() < this.ttlMs) {
      const { availability, cachedAt } = entry;
      this.#recent.set(key, { availability, cachedAt: cachedAt.getTime() });
      return { availability, cached: true, ageMs: now - cachedAt.getTime() };
    }
    this.#recent.delete(key);
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
    if (availability.transient) return { availability, cached: false, ageMs: 0 };
    await this.store.capabilityCache.put({
      customerId,
      instanceId,
      address,
      availability,
      cachedAt: new Date(now),
    });
    this.#recent.set(key, { availability, cachedAt: now });
    return { availability, cached: false, ageMs: 0 };
  }
}
