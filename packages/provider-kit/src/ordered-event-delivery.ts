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
}

/**
 * Hands a provider's events to the gateway's sink one at a time, in the order they were produced,
 * offering each up to `attempts` times: a provider-side helper for upstreams that do not retry on
 * their own (the simulator, BlueBubbles' webhooks).
 */
export class OrderedEventDelivery {
  readonly #sink: ProviderEventSink;
  readonly #logger: ProviderLogger;
  readonly #attempts: number;
  readonly #delays: readonly number[];
  readonly #retryIf: (error: unknown) => boolean;
  readonly #rememberIds: number;
  /** Upstream ids delivered or being delivered, oldest first. */
  readonly #seen = new Set<string>();
  #tail: Promise<void> = Promise.resolve();
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
   * Queues `event` behind the ones before it; resolves once the sink recorded it, rejects with
   * the sink's last error when every attempt failed.
   */
  deliver(event: ProviderInboundEvent): Promise<void> {
    const id = this.#rememberIds > 0 ? event.upstreamEventId : undefined;
    if (id !== undefined) {
      if (this.#seen.has(id)) return this.#tail;
      this.#seen.add(id);
      if (this.#seen.size > this.#rememberIds) {
        const oldest = this.#seen.values().next().value;
        if (oldest !== undefined) this.#seen.delete(oldest);
      }
    }
    const run = this.#tail.then(() => this.#offer(event));
    this.#tail = run.catch(() => undefined);
    // An event given up may be offered again later (a redelivery, reconciliation).
    if (id !== undefined) run.catch(() => this.#seen.delete(id));
    return run;
  }

  /** Like {@link deliver}, for callers that cannot wait (timers): a failure is only logged. */
  fire(event: ProviderInboundEvent): void {
    this.deliver(event).catch(() => undefined);
  }

  /** Resolves once every event queued so far has been delivered or given up. */
  idle(): Promise<void> {
    return this.#tail;
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
