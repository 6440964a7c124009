import { Redis } from 'ioredis';

/** How long one Redis round trip may take before it counts as down. */
const COMMAND_TIMEOUT_MS = 1_000;

/** Where a Redis connection reports outages. */
export interface RedisLogger {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

/**
 * The deployment's Redis: one connection for commands and one for subscriptions (a subscribed
 * connection takes no other commands). Commands never wait in a queue while Redis is away: they
 * fail at once, so callers fall back to this process's own state instead of stalling requests.
 * Both connections reconnect on their own, and subscriptions are renewed when they do.
 */
export class RedisConnection {
  /** Commands (INCR, PUBLISH, PING). */
  readonly commands: Redis;
  /** Subscriptions to event channels. */
  readonly subscriber: Redis;
  #down = false;

  /** Connects to `url` (in the background: a Redis that is down does not stop the server). */
  constructor(
    url: string,
    readonly logger: RedisLogger,
  ) {
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
    };
    this.commands = new Redis(url, options);
    // The subscriber queues its SUBSCRIBEs until it is connected, and renews them on reconnect.
    this.subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
    for (const client of [this.commands, this.subscriber]) {
      client.on('error', (error: Error) => this.#wentDown(error));
      client.on('ready', () => this.#cameBack());
    }
  }

  /** Resolves once the command connection is ready, or after `timeoutMs` (then it is down). */
  async ready(timeoutMs: number): Promise<boolean> {
    if (this.commands.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (up: boolean) => {
        clearTimeout(timer);
        this.commands.off('ready', onReady);
        resolve(up);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.commands.once('ready', onReady);
    });
  }

  /** True when Redis answers a PING now. */
  async ping(): Promise<boolean> {
    try {
      return (await this.commands.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Closes both connections. */
  async close(): Promise<void> {
    this.commands.disconnect();
    this.subscriber.disconnect();
  }

  /** Logs the first failure of an outage, not every retry. */
  #wentDown(error: Error): void {
    if (this.#down) return;
    this.#down = true;
    this.logger.warn(
      { err: error },
      'redis is unreachable: rate limits count per process and the event stream reaches this process only until it is back',
    );
  }

  #cameBack(): void {
    if (!this.#down) return;
    this.#down = false;
    this.logger.info({}, 'redis is reachable again');
  }
}
