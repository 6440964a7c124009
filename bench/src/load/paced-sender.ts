import { Pool } from 'undici';

/** A fixed-rate (open-loop) stream of sends. */
export interface PacedSenderOptions {
  url: string;
  /** API keys, used round-robin (one per customer spreads the events over customers). */
  keys: readonly string[];
  /** Sends per second. */
  ratePerSec: number;
  durationSec: number;
  /** Builds the JSON body of the `sequence`-th send. */
  body: (sequence: number) => string;
  /** Most sends in flight; past it the sender falls behind rather than piling up requests. */
  maxInFlight?: number;
}

/** What a paced run sent. */
export interface PacedSenderResult {
  accepted: number;
  rejected: number;
  /** Sends not issued because `maxInFlight` was reached: the target could not keep up. */
  skipped: number;
  elapsedMs: number;
}

/**
 * Sends at a fixed rate, whatever the answers' latency (an open loop, as real producers do),
 * ticking every 10 ms.
 */
export async function pacedSends(options: PacedSenderOptions): Promise<PacedSenderResult> {
  const pool = new Pool(options.url, { connections: 32 });
  const maxInFlight = options.maxInFlight ?? 500;
  const started = performance.now();
  const end = started + options.durationSec * 1000;
  const pending = new Set<Promise<void>>();
  let issued = 0;
  let accepted = 0;
  let rejected = 0;
  let skipped = 0;
  const sendOne = async (sequence: number) => {
    try {
      const response = await pool.request({
        method: 'POST',
        path: '/v1/messages',
        headers: {
          authorization: `Bearer ${options.keys[sequence % options.keys.length] ?? ''}`,
          'content-type': 'application/json',
        },
        body: options.body(sequence),
      });
      await response.body.dump();
      if (response.statusCode === 202) accepted += 1;
      else rejected += 1;
    } catch {
      rejected += 1;
    }
  };
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - started) / 1000) * options.ratePerSec);
    while (issued + skipped < due) {
      if (pending.size >= maxInFlight) {
        skipped += 1;
        continue;
      }
      issued += 1;
      const promise = sendOne(issued).finally(() => pending.delete(promise));
      pending.add(promise);
    }
    await new Promise((wake) => setTimeout(wake, 10));
  }
  await Promise.all(pending);
  await pool.close();
  return { accepted, rejected, skipped, elapsedMs: performance.now() - started };
}
