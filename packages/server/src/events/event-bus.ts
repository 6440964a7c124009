import type { RecordedEvent } from './event-recorder';

/** Receives the committed events of one customer. Must not throw and must not block. */
export type EventListener = (event: RecordedEvent) => void;

/**
 * Carries committed events to the live stream's subscribers. In-process now; a Redis pub/sub
 * implementation lets several server processes share it. Webhooks do not use the bus: they read
 * the durable delivery queue, so nothing is lost when no process is listening.
 */
export interface EventBus {
  /** Hands a committed event to every current subscriber of its customer; nothing is kept. */
  publish(event: RecordedEvent): void;
  /**
   * Subscribes to one customer's events from now on (no replay).
   * @returns a function that ends the subscription.
   */
  subscribe(customerId: string, listener: EventListener): () => void;
}

/** The {@link EventBus} of a single process. */
export class InProcessEventBus implements EventBus {
  readonly #listeners = new Map<string, Set<EventListener>>();

  publish(event: RecordedEvent): void {
    const listeners = this.#listeners.get(event.customerId);
    if (listeners === undefined) return;
    // A copy, so a listener that unsubscribes (a stalled stream being cut) does not skip another.
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        process.emitWarning(
          `event listener failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  subscribe(customerId: string, listener: EventListener): () => void {
    let listeners = this.#listeners.get(customerId);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(customerId, listeners);
    }
    listeners.add(listener);
    return () => {
      const current = this.#listeners.get(customerId);
      if (current === undefined) return;
      current.delete(listener);
      if (current.size === 0) this.#listeners.delete(customerId);
    };
  }

  /** How many subscriptions are open, across customers (for tests and metrics). */
  get subscriberCount(): number {
    let count = 0;
    for (const listeners of this.#listeners.values()) count += listeners.size;
    return count;
  }
}
