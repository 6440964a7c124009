/**
 * The upstream events each instance has taken, by the upstream's own id: the persistent memory
 * that makes a redelivered or replayed upstream event a no-op.
 */
export interface ProviderEventReceiptRepository {
  /**
   * Records that the instance took the upstream event `upstreamId`; false when it had already
   * (then the event is a duplicate and must be dropped).
   */
  claim(instanceId: string, upstreamId: string, at: Date): Promise<boolean>;
  /** Forgets the receipts of `instanceId` for `upstreamId` (its handling failed: take it again). */
  release(instanceId: string, upstreamId: string): Promise<void>;
  /** Removes receipts taken before `before`; answers how many. */
  prune(before: Date): Promise<number>;
}
