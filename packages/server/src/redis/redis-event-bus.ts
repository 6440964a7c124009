import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { type EventBus, type EventListener, InProcessEventBus } from '../events/event-bus';
import { EventLogTail } from '../events/event-log-tail';
import type { RecordedEvent } from '../events/event-recorder';
import type { EventRepository } from '../store/event-repository';
import type { RedisConnection } from './redis-connection';

/** What travels on a customer's channel: the event, and which process published it. */
interface BusMessage {
  origin: string;
  event: RecordedEvent;
}

/** Reports a failure to publish or subscribe, once per outage. */
interface BusLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * The {@link EventBus} of several server processes, over Redis pub/sub: one channel per customer
 * (`<prefix>events:<customerId>`), subscribed by a process while it has a stream of that
 * customer. A committed event reaches this process's streams at once and the other processes'
 * through Redis; a process skips its own messages when they come back, so each stream gets each
 * event once. Pub/sub keeps nothing: a stream that reconnects catches up from the event log
 * (`Last-Event-ID`), which every process shares through the database. While Redis is down,
 * events still reach the streams of the process that committed them.
 */
export class RedisEventBus implements EventBus {
  readonly #local = new InProcessEventBus();
  readonly #origin = randomUUID();
  readonly #subscribed = new Map<string, number>();
  readonly #tail: EventLogTail | undefined;
  #failing = false;

  /**
   * A bus on `redis`, with channels under `prefix`; with `log`, gaps (an event whose process died
   * before publishing it, events committed while Redis was down) are filled from the event log.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly logger: BusLogger,
    log?: { events: EventRepository; clock: Clock; intervalMs?: number },
  ) {
    redis.subscriber.on('message', (channel: string, raw: string) => this.#receive(channel, raw));
    this.#tail =
      log &&
      new EventLogTail({
        ...log,
        deliver: (event) => this.#local.publish(event),
        onError: (error) => this.#failed(error, 'could not read the event log for missed events'),
      });
  }

  /** Stops filling gaps from the event log. */
  close(): void {
    this.#tail?.stop();
  }

  publish(event: RecordedEvent): void {
    // The log tail may have read the event between its commit and this call (both run on the
    // event loop, the tail's query on another connection): then the streams here have it.
    if (!this.#tail || this.#tail.markSeen(event)) this.#local.publish(event);
    const message: BusMessage = { origin: this.#origin, event };
    this.redis.commands.publish(this.#channel(event.customerId), JSON.stringify(message)).then(
      () => {
        this.#failing = false;
      },
      (error: unknown) => this.#failed(error, 'an event reached only this process’s streams'),
    );
  }

  subscribe(customerId: string, listener: EventListener): () => void {
    const unsubscribe = this.#local.subscribe(customerId, listener);
    const count = (this.#subscribed.get(customerId) ?? 0) + 1;
    this.#subscribed.set(customerId, count);
    if (count === 1) {
      this.#tail?.watch(customerId);
      this.redis.subscriber
        .subscribe(this.#channel(customerId))
        .catch((error: unknown) =>
          this.#failed(error, 'could not subscribe to a customer’s events'),
        );
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      unsubscribe();
      const left = (this.#subscribed.get(customerId) ?? 1) - 1;
      if (left > 0) {
        this.#subscribed.set(customerId, left);
        return;
      }
      this.#subscribed.delete(customerId);
      this.#tail?.unwatch(customerId);
      this.redis.subscriber.unsubscribe(this.#channel(customerId)).catch(() => undefined);
    };
  }

  #channel(customerId: string): string {
    return `${this.prefix}events:${customerId}`;
  }

  #receive(channel: string, raw: string): void {
    if (!channel.startsWith(`${this.prefix}events:`)) return;
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch {
      return;
    }
    if (message.origin === this.#origin) return;
    // Already handed on by the log tail (which read it before Redis brought it): once is enough.
    if (this.#tail && !this.#tail.markSeen(message.event)) return;
    this.#local.publish(message.event);
  }

  #failed(error: unknown, what: string): void {
    if (this.#failing) return;
    this.#failing = true;
    this.logger.warn({ err: error }, `redis event bus: ${what}`);
  }
}
