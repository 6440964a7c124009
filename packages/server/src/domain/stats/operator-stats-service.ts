import type { OperatorStats, OperatorStatsQuery } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { Store } from '../../store/store';

/** Each window's length in milliseconds. */
const WINDOW_MS: Record<OperatorStats['window'], number> = {
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '24h': 24 * 60 * 60_000,
};

/** The operator's stats: the deployment's traffic over a recent window, counted from the store. */
export class OperatorStatsService {
  readonly #store: Store;
  readonly #clock: Clock;

  /** Counts from `store`; the window ends at `clock`'s now. */
  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Outbound messages accepted in the window by their status now, and failed webhook attempts. */
  async count(query: OperatorStatsQuery): Promise<OperatorStats> {
    const until = new Date(this.#clock.now());
    const since = new Date(until.getTime() - WINDOW_MS[query.window]);
    const [messages, failedDeliveries] = await Promise.all([
      this.#store.messages.tallyOutboundSince(since),
      this.#store.deliveries.countFailedSince(since),
    ]);
    return {
      window: query.window,
      since: since.toISOString(),
      until: until.toISOString(),
      messages,
      webhooks: { failed: failedDeliveries },
    };
  }
}
