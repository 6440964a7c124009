import { createHmac } from 'node:crypto';
import { Pool } from 'undici';

/** The baseline of webhook delivery: signed POSTs from a bare undici loop. */
export interface WebhookPostLoopOptions {
  /** The receiver's base URL. */
  url: string;
  path: string;
  total: number;
  concurrency: number;
  /** The body of every POST (a real event payload of the same run). */
  body: string;
  /** Signs like the server does, so the receiver does the same work for both. */
  secret: string;
}

/** What the baseline loop measured. */
export interface WebhookPostLoopResult {
  ok: number;
  perSec: number;
  elapsedMs: number;
}

/**
 * POSTs `total` signed copies of `body` from `concurrency` concurrent clients: the most a Node.js
 * process doing nothing else can deliver to this receiver on this machine.
 */
export async function webhookPostLoop(
  options: WebhookPostLoopOptions,
): Promise<WebhookPostLoopResult> {
  const pool = new Pool(options.url, { connections: options.concurrency });
  let next = 0;
  let ok = 0;
  const started = performance.now();
  const client = async () => {
    while (next < options.total) {
      next += 1;
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', options.secret)
        .update(`${timestamp}.`)
        .update(options.body)
        .digest('hex');
      const response = await pool.request({
        method: 'POST',
        path: options.path,
        headers: {
          'content-type': 'application/json',
          'x-signature': `sha256=${signature}`,
          'x-timestamp': String(timestamp),
          'x-event-type': 'baseline',
        },
        body: options.body,
      });
      await response.body.dump();
      if (response.statusCode === 200) ok += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, client));
  } finally {
    await pool.close();
  }
  const elapsedMs = performance.now() - started;
  return { ok, perSec: (ok * 1000) / elapsedMs, elapsedMs };
}
