import { Agent, type ClientRequest, request } from 'node:http';

/** Where and how to subscribe. */
export interface SseSubscribeOptions {
  /** Base URL of the server. */
  url: string;
  /** The bearer token of each subscriber (its length is the number of subscribers). */
  tokens: readonly string[];
  /** Subscriptions opened at once, so connection set-up does not flood the listen backlog. */
  batchSize?: number;
}

const TIMESTAMP = /"timestamp":"([^"]+)"/;

/**
 * Many concurrent `GET /v1/events` streams in this process. Each event frame's latency is its
 * receipt time minus the envelope's `timestamp` (set by the server when it records the event, in
 * the transaction it commits with): commit → receipt, on one machine's clock.
 */
export class SseSubscribers {
  /** Latency of each event frame received since the last reset, milliseconds. */
  latencies: number[] = [];
  /** Event frames received since the last reset. */
  frames = 0;
  /** `performance.now()` of the first and the last event frame since the last reset. */
  firstFrameAt = 0;
  lastFrameAt = 0;
  /** Streams that ended or failed while open. */
  disconnects = 0;
  readonly #requests: ClientRequest[] = [];
  readonly #agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  #closing = false;

  private constructor() {}

  /** Opens every subscription and resolves once each has received the stream's opening bytes. */
  static async open(options: SseSubscribeOptions): Promise<SseSubscribers> {
    const subscribers = new SseSubscribers();
    const batchSize = options.batchSize ?? 100;
    for (let start = 0; start < options.tokens.length; start += batchSize) {
      const batch = options.tokens.slice(start, start + batchSize);
      await Promise.all(batch.map((token) => subscribers.#subscribe(options.url, token)));
    }
    return subscribers;
  }

  #subscribe(url: string, token: string): Promise<void> {
    return new Promise((opened, failed) => {
      const req = request(
        `${url}/v1/events`,
        {
          agent: this.#agent,
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            failed(new Error(`GET /v1/events answered ${res.statusCode}`));
            return;
          }
          res.setEncoding('utf8');
          let buffer = '';
          let first = true;
          res.on('data', (chunk: string) => {
            if (first) {
              first = false;
              opened();
            }
            buffer += chunk;
            const now = Date.now();
            const monotonicNow = performance.now();
            let end = buffer.indexOf('\n\n');
            while (end >= 0) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              // Comments (`: connected`, `: heartbeat`) carry no event.
              if (!frame.startsWith(':')) {
                const stamp = TIMESTAMP.exec(frame)?.[1];
                if (stamp) {
                  if (this.frames === 0) this.firstFrameAt = monotonicNow;
                  this.lastFrameAt = monotonicNow;
                  this.frames += 1;
                  this.latencies.push(now - Date.parse(stamp));
                }
              }
              end = buffer.indexOf('\n\n');
            }
          });
          res.on('close', () => {
            if (!this.#closing) this.disconnects += 1;
          });
        },
      );
      req.on('error', (error) => {
        if (!this.#closing) {
          this.disconnects += 1;
          failed(error);
        }
      });
      req.end();
      this.#requests.push(req);
    });
  }

  /** Forgets what was received so far (after a warm-up). */
  reset(): void {
    this.latencies = [];
    this.frames = 0;
    this.firstFrameAt = 0;
    this.lastFrameAt = 0;
  }

  /** Closes every stream. */
  close(): void {
    this.#closing = true;
    for (const req of this.#requests) req.destroy();
    this.#agent.destroy();
  }
}
