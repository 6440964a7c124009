import type { Clock } from '../clock';
import type { EventRepository } from '../store/event-repository';
import type { RecordedEvent } from './event-recorder';
import { toRecorded } from './event-service';

/** How far back each look at the log reaches: a transaction commits this long after its events' time at most. */
const LOOKBACK_MS = 10_000;
/** Events read per query. */
const PAGE = 500;
/** Pages read per customer per look (a burst beyond it is left to `Last-Event-ID`). */
const MAX_PAGES = 10;

/** Options of {@link EventLogTail}. */
export interface EventLogTailOptions {
  /** The shared event log. */
  events: EventRepository;
  /** The app's clock (event times are its times). */
  clock: Clock;
  /** Hands an event the bus did not bring to this process's streams. */
  deliver: (event: RecordedEvent) => void;
  /** How often to look at the log (default 1 s). */
  intervalMs?: number;
  /** Told of a failed look (the next one tries again). */
  onError?: (error: unknown) => void;
}

/** What is known of one watched customer. */
interface Watched {
  /** Events older than this were committed before the first stream opened: not delivered. */
  since: number;
  /** Ids delivered (by the bus or by this tail), with their event time, kept for the lookback. */
  seen: Map<string, number>;
}

/**
 * Fills the gaps of a pub/sub event bus from the shared event log. Pub/sub delivers an event only
 * if the process that committed it lives to publish it and the bus is up; a process killed
 * between its commit and its publish, or a Redis outage, would leave holes in the other processes'
 * streams. While a process has streams of a customer, it reads that customer's recent events
 * from the log every second and hands on those that neither its own commits nor the bus brought,
 * so every committed event reaches every stream, once, within about a second.
 */
export class EventLogTail {
  readonly #options: EventLogTailOptions;
  readonly #watched = new Map<string, Watched>();
  #timer: NodeJS.Timeout | undefined;
  #looking = false;

  /** A tail that looks at nothing until a customer is watched. */
  constructor(options: EventLogTailOptions) {
    this.#options = options;
  }

  /** Starts watching `customerId`'s events (its first stream opened). */
  watch(customerId: string): void {
    if (this.#watched.has(customerId)) return;
    this.#watched.set(customerId, { since: this.#options.clock.now(), seen: new Map() });
    this.#timer ??= setInterval(() => void this.look(), this.#options.intervalMs ?? 1000);
    this.#timer.unref();
  }

  /** Stops watching `customerId` (its last stream closed). */
  unwatch(customerId: string): void {
    this.#watched.delete(customerId);
    if (this.#watched.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /**
   * Records that `event` reached this process's streams (committed here, or brought by the bus);
   * answers false when it had already, so the caller drops the repeat.
   */
  markSeen(event: RecordedEvent): boolean {
    const watched = this.#watched.get(event.customerId);
    if (!watched) return true;
    if (watched.seen.has(event.id)) return false;
    watched.seen.set(event.id, Date.parse(event.createdAt));
    return true;
  }

  /** Looks at the log once for every watched customer (the timer calls it; tests may too). */
  async look(): Promise<void> {
    if (this.#looking) return;
    this.#looking = true;
    try {
      for (const [customerId, watched] of this.#watched) {
        await this.#lookAt(customerId, watched).catch((error: unknown) =>
          this.#options.onError?.(error),
        );
      }
    } finally {
      this.#looking = false;
    }
  }

  /** Stops the timer. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#watched.clear();
  }

  async #lookAt(customerId: string, watched: Watched): Promise<void> {
    const now = this.#options.clock.now();
    const from = Math.max(watched.since, now - LOOKBACK_MS);
    for (const [id, at] of watched.seen) if (at < from - LOOKBACK_MS) watched.seen.delete(id);
    let after = { createdAt: new Date(from - 1), id: '' };
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const rows = await this.#options.events.listAfter(customerId, after, PAGE);
      // Unwatched meanwhile (its last stream closed), or watched anew: this look is stale.
      if (this.#watched.get(customerId) !== watched) return;
      for (const row of rows) {
        if (row.createdAt.getTime() < watched.since || watched.seen.has(row.id)) continue;
        const event = toRecorded(row);
        watched.seen.set(row.id, row.createdAt.getTime());
        this.#options.deliver(event);
      }
      const last = rows.at(-1);
      if (rows.length < PAGE || !last) return;
      after = { createdAt: last.createdAt, id: last.id };
    }
  }
}
