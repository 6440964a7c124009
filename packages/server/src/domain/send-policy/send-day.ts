/** Milliseconds in a day. */
const DAY_MS = 86_400_000;

/**
 * The day boundary of send policies: "today" is the calendar day in `timeZone` (an IANA zone,
 * `UTC` by default, `SEND_POLICY_TIME_ZONE`), read from the injected clock.
 */
export class SendDay {
  readonly #format: Intl.DateTimeFormat;

  /** Days in `timeZone`; throws a RangeError for an unknown zone. */
  constructor(readonly timeZone = 'UTC') {
    this.#format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }

  /** The day (YYYY-MM-DD) `at` (epoch ms) falls on. */
  dayOf(at: number): string {
    return this.#format.format(new Date(at));
  }

  /** When the day after the one `at` falls on starts (epoch ms), to the minute. */
  nextDayStart(at: number): number {
    const today = this.dayOf(at);
    // The first minute whose day differs, between now and 26 h on (any zone's longest day).
    let low = at;
    let high = at + DAY_MS + 2 * 3_600_000;
    while (high - low > 60_000) {
      const middle = Math.floor((low + high) / 2);
      if (this.dayOf(middle) === today) low = middle;
      else high = middle;
    }
    // Zones change day on a whole minute: the one in (low, high].
    return Math.floor(high / 60_000) * 60_000;
  }
}

/** Whole days from `from` to `to` (both YYYY-MM-DD): 0 on the same day. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}
