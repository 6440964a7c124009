/**
 * Leases of provider instances (one process at a time on a WhatsApp number's socket), scoped by
 * instance. Time is the caller's clock, in epoch milliseconds.
 */
export interface ProviderLeaseRepository {
  /**
   * Takes or renews the lease `name` for `holder` until `expiresAt`, when it is free, expired at
   * `now` or already `holder`'s; answers whether `holder` holds it now. Atomic: of two holders
   * racing for a free lease, exactly one wins.
   */
  acquire(
    instanceId: string,
    name: string,
    holder: string,
    now: number,
    expiresAt: number,
  ): Promise<boolean>;
  /** Gives the lease up, when `holder` holds it. */
  release(instanceId: string, name: string, holder: string): Promise<void>;
  /** Removes every lease of the instance (it is deleted). */
  deleteAll(instanceId: string): Promise<void>;
}
