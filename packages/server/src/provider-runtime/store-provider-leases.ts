import type { ProviderLeases } from '@switchboard/provider-kit';
import type { Clock } from '../clock';
import type { ProviderLeaseRepository } from '../store/provider-lease-repository';

/**
 * {@link ProviderLeases} in the database (`provider_leases`), scoped to one instance and held in
 * the name of `holder` (this server process): what the whole deployment shares, so one socket
 * per WhatsApp number holds across processes on one database.
 */
export class StoreProviderLeases implements ProviderLeases {
  /** The leases of `instanceId` taken as `holder`, timed by `clock`. */
  constructor(
    private readonly repository: ProviderLeaseRepository,
    private readonly instanceId: string,
    private readonly holder: string,
    private readonly clock: Clock,
  ) {}

  /** Takes or renews `name` for `ttlMs`. */
  acquire(name: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    return this.repository.acquire(this.instanceId, name, this.holder, now, now + ttlMs);
  }

  /** Gives `name` up. */
  release(name: string): Promise<void> {
    return this.repository.release(this.instanceId, name, this.holder);
  }
}
