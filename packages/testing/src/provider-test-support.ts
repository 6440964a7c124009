import type {
  MessagingProvider,
  ProviderDeliveryStatus,
  ProviderEventSink,
  ProviderInboundEvent,
  ProviderInboundEventKind,
  ProviderLogger,
} from '@switchboard/provider-kit';
import {
  MemoryProviderLeases,
  MemoryProviderStateStore,
  type ProviderLeases,
  type ProviderStateStore,
} from '@switchboard/provider-kit';

/** A logger that drops everything, for tests. */
export const silentProviderLogger: ProviderLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

interface Waiter {
  predicate: (event: ProviderInboundEvent) => boolean;
  resolve: (event: ProviderInboundEvent) => void;
}

/** Settings of a {@link ProviderEventRecorder}. */
export interface ProviderEventRecorderOptions {
  /** Awaited before each event (given) is recorded: a slow gateway, or one slow on some events. */
  hold?: (event: ProviderInboundEvent) => Promise<void>;
}

/**
 * A sink that records every provider event, for tests: what arrived, in order, and a way to wait
 * for one. It also measures how many deliveries overlapped, to check providers await the sink.
 */
export class ProviderEventRecorder {
  /** Every event recorded, in arrival order. */
  readonly events: ProviderInboundEvent[] = [];
  /** The most deliveries that were in progress at once. */
  maxConcurrentDeliveries = 0;
  /** How many times the sink was called, recorded or not. */
  calls = 0;
  readonly #hold: ((event: ProviderInboundEvent) => Promise<void>) | undefined;
  #inFlight = 0;
  #waiters: Waiter[] = [];

  /** A recorder; `options.hold` slows every delivery down. */
  constructor(options: ProviderEventRecorderOptions = {}) {
    this.#hold = options.hold;
  }

  /** The sink to give the provider. */
  readonly sink: ProviderEventSink = async (event) => {
    this.calls += 1;
    this.#inFlight += 1;
    this.maxConcurrentDeliveries = Math.max(this.maxConcurrentDeliveries, this.#inFlight);
    try {
      await this.#hold?.(event);
      this.events.push(event);
      this.#waiters = this.#waiters.filter((waiter) => {
        if (!waiter.predicate(event)) return true;
        waiter.resolve(event);
        return false;
      });
    } finally {
      this.#inFlight -= 1;
    }
  };

  /** The recorded events of one kind. */
  ofKind<K extends ProviderInboundEventKind>(
    kind: K,
  ): Extract<ProviderInboundEvent, { kind: K }>[] {
    return this.events.filter(
      (event): event is Extract<ProviderInboundEvent, { kind: K }> => event.kind === kind,
    );
  }

  /** The statuses reported for `externalId`, in order. */
  statusesOf(externalId: string): ProviderDeliveryStatus[] {
    return this.ofKind('message.status')
      .filter((event) => event.externalId === externalId)
      .map((event) => event.status);
  }

  /** Resolves with the first event (already recorded or still to come) matching `predicate`. */
  waitFor(
    predicate: (event: ProviderInboundEvent) => boolean,
    timeoutMs = 5_000,
  ): Promise<ProviderInboundEvent> {
    const seen = this.events.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter.resolve !== done);
        reject(new Error(`no matching provider event within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (event: ProviderInboundEvent): void => {
        clearTimeout(timer);
        resolve(event);
      };
      this.#waiters.push({ predicate, resolve: done });
    });
  }

  /** Waits until `externalId` reported `status`. */
  waitForStatus(
    externalId: string,
    status: ProviderDeliveryStatus,
    timeoutMs?: number,
  ): Promise<ProviderInboundEvent> {
    return this.waitFor(
      (event) =>
        event.kind === 'message.status' &&
        event.externalId === externalId &&
        event.status === status,
      timeoutMs,
    );
  }
}

/**
 * Starts `provider` with a recorder as its sink, an in-memory state store and leases of its own
 * (and `webhookUrl` as its ingress URL, for upstreams that call back). Pass `leases` made by one
 * `MemoryProviderLeases` to providers that stand for processes sharing a database.
 */
export async function startWithRecorder(
  provider: MessagingProvider,
  recorder: ProviderEventRecorder = new ProviderEventRecorder(),
  state: ProviderStateStore = new MemoryProviderStateStore(),
  webhookUrl?: string,
  leases: ProviderLeases = new MemoryProviderLeases().holder('test'),
): Promise<{ recorder: ProviderEventRecorder; state: ProviderStateStore }> {
  await provider.start({
    sink: recorder.sink,
    state,
    leases,
    logger: silentProviderLogger,
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
  });
  return { recorder, state };
}
