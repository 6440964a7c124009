import type {
  ProviderInboundEvent,
  ProviderStartContext,
  ProviderStateStore,
} from '@switchboard/provider-kit';
import {
  OrderedEventDelivery,
  ProviderError,
  SinkUnavailableError,
  sleep,
  type TimerClock,
} from '@switchboard/provider-kit';

/** Waits between offers of an event the gateway's sink refused (the last repeats). */
const SINK_RETRY_DELAYS_MS = [100, 250, 500, 1000, 2000, 5000, 10_000];

/**
 * The order a simulator event keeps: the status updates of one send (all its parts) in the order
 * they happened, apart from other sends'; every other event (inbound messages, reactions, chat
 * and session events) in one order, as they happened.
 */
function simulatorOrderKey(event: ProviderInboundEvent): string {
  if (event.kind !== 'message.status') return 'events';
  return event.attemptId === undefined
    ? `message ${event.externalId}`
    : `attempt ${event.attemptId}`;
}

/**
 * What the parts of the simulator share: the clock and step length, the event delivery to the
 * gateway's sink, the instance's state store, and every pending timer (so `stop` cancels them).
 */
export class SimulatorContext {
  /** The clock every simulated step runs on. */
  readonly clock: TimerClock;
  /** The length of one lifecycle step, in milliseconds (0: as fast as possible). */
  readonly stepMs: number;
  #delivery: OrderedEventDelivery | undefined;
  #state: ProviderStateStore | undefined;
  readonly #timers = new Set<() => void>();

  /** A context on `clock` with steps of `stepMs`. */
  constructor(clock: TimerClock, stepMs: number) {
    this.clock = clock;
    this.stepMs = stepMs;
  }

  /** Connects the simulator to the gateway. */
  attach(context: ProviderStartContext): void {
    // A sink whose database is unavailable for a moment (locked, read-only, full) is offered
    // the event again for about twenty seconds, in order, before it is given up; any other
    // refusal is final.
    this.#delivery = new OrderedEventDelivery(context.sink, context.logger, {
      attempts: SINK_RETRY_DELAYS_MS.length + 1,
      retryDelaysMs: SINK_RETRY_DELAYS_MS,
      retryIf: (error) => error instanceof SinkUnavailableError,
      orderKey: simulatorOrderKey,
    });
    this.#state = context.state;
  }

  /** Cancels every pending step and waits for the events already produced to be delivered. */
  async detach(): Promise<void> {
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
    const delivery = this.#delivery;
    this.#delivery = undefined;
    delivery?.close();
    await delivery?.idle();
  }

  /** The instance's state store; the simulator must be started. */
  get state(): ProviderStateStore {
    if (!this.#state) throw notStarted();
    return this.#state;
  }

  /** Fails unless the simulator is started. */
  assertStarted(): void {
    if (!this.#delivery) throw notStarted();
  }

  /** The current time, as event timestamps carry it. */
  occurredAt(): Date {
    return new Date(this.clock.now());
  }

  /** Delivers `event` to the gateway and waits until it is recorded. */
  emit(event: ProviderInboundEvent): Promise<void> {
    if (!this.#delivery) return Promise.reject(notStarted());
    return this.#delivery.deliver(event);
  }

  /** Delivers `event` without waiting (from a timer); a failure is logged by the delivery. */
  fire(event: ProviderInboundEvent): void {
    this.#delivery?.fire(event);
  }

  /** Runs `task` after `steps` steps; the returned function cancels it. */
  after(steps: number, task: () => void): () => void {
    const cancel = this.clock.schedule(steps * this.stepMs, () => {
      this.#timers.delete(cancel);
      task();
    });
    this.#timers.add(cancel);
    return () => {
      this.#timers.delete(cancel);
      cancel();
    };
  }

  /** Waits `steps` steps. */
  wait(steps: number): Promise<void> {
    return sleep(this.clock, steps * this.stepMs);
  }
}

function notStarted(): ProviderError {
  return new ProviderError('INTERNAL_ERROR', 'the simulator is not started', { retryable: false });
}
