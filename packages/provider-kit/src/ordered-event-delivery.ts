import type { ProviderLogger } from './provider';
import type { ProviderEventSink, ProviderInboundEvent } from './provider-events';

/** How many times an event is offered to the sink before it is given up. */
const DEFAULT_ATTEMPTS = 3;

/**
 * Hands a provider's events to the gateway's sink one at a time, in the order they were produced,
 * offering each up to `attempts` times: a provider-side helper for upstreams that do not retry on
 * their own (the simulator, BlueBubbles' webhooks).
 */
export class OrderedEventDelivery {
  readonly #sink: ProviderEventSink;
  readonly #logger: ProviderLogger;
  readonly #attempts: number;
  #tail: Promise<void> = Promise.resolve();

  /** Delivers to `sink`, logging events given up to `logger`. */
  constructor(sink: ProviderEventSink, logger: ProviderLogger, attempts = DEFAULT_ATTEMPTS) {
    this.#sink = sink;
    this.#logger = logger;
    this.#attempts = Math.max(1, attempts);
  }

  /**
   * Queues `event` behind the ones before it; resolves once the sink recorded it, rejects with
   * the sink's last error when every attempt failed.
   */
  deliver(event: ProviderInboundEvent): Promise<void> {
    const run = this.#tail.then(() => this.#offer(event));
    this.#tail = run.catch(() => undefined);
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
    }
    this.#logger.error(
      { kind: event.kind, attempts: this.#attempts, err: lastError },
      'provider event dropped: the gateway did not record it',
    );
    throw lastError;
  }
}
