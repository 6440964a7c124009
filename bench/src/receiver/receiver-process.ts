import { join } from 'node:path';
import { request } from 'undici';
import { waitUntil } from '../load/wait-until';
import { BENCH_SRC_DIR } from '../paths';
import { freePort } from '../process/free-port';
import { type NodeChild, spawnHttpChild } from '../process/node-child';
import type { ReceiverStats } from './webhook-receiver';

/** The signing secret the scenario registers its webhooks with. */
export const RECEIVER_SECRET = 'bench-webhook-secret-0123456789abcdef';

/** The webhook receiver (see `webhook-receiver.ts`) in its own process. */
export class WebhookReceiver {
  private constructor(
    /** Base URL; webhooks point at `<url>/hooks/<name>`. */
    readonly url: string,
    private readonly process: NodeChild,
  ) {}

  /** Starts the receiver. */
  static async start(): Promise<WebhookReceiver> {
    const port = await freePort();
    const { child, url } = await spawnHttpChild(
      {
        name: 'webhook receiver',
        script: join(BENCH_SRC_DIR, 'receiver', 'webhook-receiver.ts'),
        env: { NODE_ENV: 'production', PORT: String(port), WEBHOOK_SECRET: RECEIVER_SECRET },
      },
      port,
    );
    return new WebhookReceiver(url, child);
  }

  /** The counts since the last reset. */
  async stats(): Promise<ReceiverStats> {
    const response = await request(`${this.url}/stats`);
    return (await response.body.json()) as ReceiverStats;
  }

  /**
   * Waits until `messages` messages each had their `eventsPerMessage` webhooks (one of them
   * `message.delivered`), or until `deadline` (a `performance.now()` time): whether they all came,
   * and the counts at the end.
   */
  async waitForMessages(
    messages: number,
    eventsPerMessage: number,
    deadline: number,
  ): Promise<{ complete: boolean; stats: ReceiverStats }> {
    let stats = await this.stats();
    const complete = await waitUntil(async () => {
      stats = await this.stats();
      return (
        (stats.byType['message.delivered'] ?? 0) >= messages &&
        stats.valid >= messages * eventsPerMessage
      );
    }, deadline);
    return { complete, stats };
  }

  /** Zeroes the counts. */
  async reset(): Promise<void> {
    const response = await request(`${this.url}/reset`, { method: 'POST' });
    await response.body.dump();
  }

  /** Stops the receiver. */
  async stop(): Promise<void> {
    await this.process.stop();
  }
}
