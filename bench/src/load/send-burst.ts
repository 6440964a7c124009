import { Pool } from 'undici';
import { type RecipientBehaviour, recipientCount, recipientNumber } from '../seed/phone-numbers';
import { realisticSendBody } from '../seed/send-body';

/** A closed-loop burst of sends. */
export interface SendBurstOptions {
  /** The server, or several processes of one deployment taken in turn (client-side balancing). */
  url: string | readonly string[];
  /** API keys, used round-robin. */
  keys: readonly string[];
  total: number;
  concurrency: number;
  /** Stops issuing sends at this `performance.now()` time even when `total` is not reached. */
  deadline: number;
  runTag: string;
  behaviour: RecipientBehaviour;
}

/** What a burst got. */
export interface SendBurstResult {
  accepted: number;
  rejected: number;
  /** Statuses of the rejections. */
  rejectedStatuses: Record<string, number>;
  elapsedMs: number;
}

/**
 * Sends `total` realistic messages from `concurrency` concurrent clients as fast as the server
 * accepts them (each client sends its next one on an answer), within a deadline.
 */
export async function sendBurst(options: SendBurstOptions): Promise<SendBurstResult> {
  const urls = typeof options.url === 'string' ? [options.url] : options.url;
  const pools = urls.map(
    (url) => new Pool(url, { connections: Math.ceil(options.concurrency / urls.length) }),
  );
  const recipients = recipientCount(options.behaviour);
  const rejectedStatuses: Record<string, number> = {};
  let next = 0;
  let accepted = 0;
  let rejected = 0;
  const started = performance.now();
  const client = async () => {
    while (next < options.total && performance.now() < options.deadline) {
      next += 1;
      const sequence = next;
      const pool = pools[sequence % pools.length];
      if (!pool) throw new Error('sendBurst needs at least one url');
      const response = await pool.request({
        method: 'POST',
        path: '/v1/messages',
        headers: {
          authorization: `Bearer ${options.keys[sequence % options.keys.length] ?? ''}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(
          realisticSendBody(
            recipientNumber(options.behaviour, sequence % recipients),
            sequence,
            options.runTag,
          ),
        ),
      });
      await response.body.dump();
      if (response.statusCode === 202) accepted += 1;
      else {
        rejected += 1;
        rejectedStatuses[response.statusCode] = (rejectedStatuses[response.statusCode] ?? 0) + 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, client));
  } finally {
    await Promise.all(pools.map((pool) => pool.close()));
  }
  return { accepted, rejected, rejectedStatuses, elapsedMs: performance.now() - started };
}
