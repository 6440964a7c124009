import type { ProviderLogger } from './provider';
import type { ProviderEventSink, ProviderInboundEvent } from './provider-events';

/** How many times an event is offered to the sink before it is given up. */
const DEFAULT_ATTEMPTS = 3;

/** Options of {@link OrderedEventDelivery}. */
export interface OrderedEventDeliveryOptions {
  /** Offers of each event before it is given up (default 3). */
  attempts?: number;
  /**
   * Real-time waits before the second, third… offer (the last one repeats); default none. A sink
   * whose store is briefly unavailable (a locked or full disk) takes the event on a later offer.
   */
  retryDelaysMs?: readonly number[];
  /** Whether a refusal is worth another offer (default: every one is). */
  retryIf?: (error: unknown) => boolean;
  /**
   * How many upstream event ids to remember (default 0: none): an event whose `upstreamEventId`
   * was delivered (or is being delivered) already is not offered again, for upstreams that tell
   * the same thing twice (a send's answer and its webhook, duplicate webhooks, reconciliation).
   * The gateway's own de-duplication is durable; this one spares it the repeats.
   */
  rememberIds?: number;
  /**
   * The order an event belongs to (default: one order for every event). Events of one key reach
   * the sink one at a time, in the order they were produced; events of different keys may be in
   * flight together, so a key per message lets the status updates of many messages share the
   * gateway's commits instead of waiting for each other's.
   */
  orderKey?: (event: ProviderInboundEvent) => string;
}

/** The key of every event when no `orderKey` is given. */
const ONE_ORDER = '';

/**
 * Hands a provider's events to the gateway's sink one at a time, in the order they were produced
 * (per `orderKey`, when one is given), offering each up to `attempts` times: a provider-side
 * helper for upstreams that do not retry on their own (the simulator, BlueBubbles' webhooks).
 */
export class OrderedEventDelivery {
  readonly #sink: ProviderEventSink;
  readonly #logger: ProviderLogger;
  readonly #attempts: number;
  readonly #delays: readonly number[];
  readonly #retryIf: (error: unknown) => boolean;
  readonly #rememberIds: number;
  readonly #orderKey: (event: ProviderInboundEvent) => string;
  /** Upstream ids delivered or being delivered, oldest first. */
  readonly #seen = new Set<string>();
  /** The last event queued of each key with events in flight (a key leaves once it settles). */
  readonly #tails = new Map<string, Promise<void>>();
  #closed = false;
  readonly #wakers = new Set<() => void>();

  /** Delivers to `sink`, logging events given up to `logger`. */
  constructor(
    sink: ProviderEventSink,
    logger: ProviderLogger,
    options: OrderedEventDeliveryOptions = {},
  ) {
    this.#sink = sink;
    this.#logger = logger;
    this.#attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
    this.#delays = options.retryDelaysMs ?? [];
    this.#retryIf = options.retryIf ?? (() => true);
    this.#rememberIds = options.rememberIds ?? 0;
    this.#orderKey = options.orderKey ?? (() => ONE_ORDER);
  }

  /** True when an event with this upstream id was delivered, or is queued, already. */
  seen(upstreamEventId: string): boolean {
    return this.#seen.has(upstreamEventId);
  }

  /** Stops waiting between offers: events still being retried get one last offer, then give up. */
  close(): void {
    this.#closed = true;
    for (const wake of this.#wakers) wake();
    this.#wakers.clear();
  }

  /**
   * Queues `event` behind the ones of its key before it; resolves once the sink recorded it,
   * rejects with the sink's last error when every attempt failed.
   */
  deliver(event: ProviderInboundEvent): Promise<void> {
    const key = this.#orderKey(event);
    const before = this.#tails.get(key);
    const id = this.#rememberIds > 0 ? event.upstreamEventId : undefined;
    if (id !== undefined) {
      if (this.#seen.has(id)) return before ?? Promise.resolve();
      this.#seen.add(id);
      if (this.#seen.size > this.#rememberIds) {
        const oldest = this.#seen.values().next().value;
        if (oldest !== undefined) this.#seen.delete(oldest);
      }
    }
    // Offered from a microtask, never inside the caller's own call, as when it waits its turn.
    const run = (before ?? Promise.resolve()).then(() => this.#offer(event));
    const tail = run.catch(() => undefined);
    this.#tails.set(key, tail);
    // A key whose last event settled holds nothing back: forget it, so keys do not pile up.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    // An event given up may be offered again later (a redelivery, reconciliation).
    if (id !== undefined) run.catch(() => this.#seen.delete(id));
    return run;
  }

  /** Like {@link deliver}, for callers that cannot wait (timers): a failure is only logged. */
  fire(event: ProviderInboundEvent): void {
    this.deliver(event).catch(() => undefined);
  }

  /** Resolves once every event queued so far has been delivered or given up. */
  async idle(): Promise<void> {
    await Promise.all(this.#tails.values());
  }

  async #offer(event: ProviderInboundEvent): Promise<void> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.#attempts; attempt++) {
      try {
        await this.#sink(event);
        return;
      } catch (error) {
        lastError = error;
      }
      if (this.#closed || !this.#retryIf(lastError)) break;
      if (attempt < this.#attempts) await this.#pause(attempt);
    }
    this.#logger.error(
      { kind: event.kind, attempts: this.#attempts, err: lastError },
      'provider event dropped: the gateway did not record it',
    );
    throw lastError;
  }

  /** The wait before offer `attempt + 1`, cut short by {@link close}. */
  #pause(attempt: number): Promise<void> {
    const ms = this.#delays[Math.min(attempt - 1, this.#delays.length - 1)] ?? 0;
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref?.();
      this.#wakers.add(wake);
    });
  }
}
