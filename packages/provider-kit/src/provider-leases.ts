/**
 * Leases a provider instance takes on what only one process of the deployment may hold at a time
 * (the socket of a WhatsApp number: two sockets on one account close each other). The gateway
 * hands them to the provider at start, scoped to the instance and held in the name of this
 * process; a lease not renewed within its time-to-live is free for another process to take.
 */
export interface ProviderLeases {
  /**
   * Takes `name` for `ttlMs`, or renews it when this process holds it already; answers false
   * while another process holds it (and it has not expired).
   */
  acquire(name: string, ttlMs: number): Promise<boolean>;
  /** Gives `name` up, when this process holds it. */
  release(name: string): Promise<void>;
}

/**
 * {@link ProviderLeases} in memory, shared by every holder made from the same instance: for tests
 * and for a single process. `holder` names who takes the leases.
 * @example const leases = new MemoryProviderLeases(); const a = leases.holder('a');
 */
export class MemoryProviderLeases {
  readonly #leases = new Map<string, { holder: string; expiresAt: number }>();

  /** Leases on `now`'s clock (default: the system time). */
  constructor(private readonly now: () => number = Date.now) {}

  /** The leases as `holder` takes them. */
  holder(holder: string): ProviderLeases {
    return {
      acquire: async (name, ttlMs) => {
        const current = this.#leases.get(name);
        const now = this.now();
        if (current && current.holder !== holder && current.expiresAt > now) return false;
        this.#leases.set(name, { holder, expiresAt: now + ttlMs });
        return true;
      },
      release: async (name) => {
        if (this.#leases.get(name)?.holder === holder) this.#leases.delete(name);
      },
    };
  }
}
