import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { APIConnectionError, APIUserAbortError, SwitchboardError } from '../core/errors';
import type { RequestSpec, Transport } from '../core/request';
import {
  type AttemptFailure,
  isRetryable,
  type RetryPolicy,
  retryDelay,
  type Sleep,
} from '../core/retry';
import type { EventStreamGap } from '../generated/api-types';

/** How an {@link EventStream} reconnects after a dropped connection. Durations in milliseconds. */
export interface ReconnectOptions {
  /** Reconnect attempts in a row that receive nothing before the stream gives up; default unlimited. */
  maxAttempts?: number | undefined;
  /** The first reconnect delay; later ones double up to `maxDelay`. Default 1 000. */
  initialDelay?: number | undefined;
  /** The longest reconnect delay. Default 30 000. */
  maxDelay?: number | undefined;
}

/** Settings of one {@link EventStream}. */
export interface EventStreamConfig {
  /** The transport that opens the connection. */
  transport: Transport;
  /** The streaming request (path and query already resolved). */
  spec: RequestSpec;
  /** Extra headers sent on every connection. */
  headers?: Record<string, string> | undefined;
  /** Sent as `X-Correlation-Id` on every connection. */
  correlationId?: string | undefined;
  /** Ends the stream cleanly when it aborts. */
  signal?: AbortSignal | undefined;
  /** Milliseconds to wait for the response headers of each connection. */
  connectTimeout?: number | undefined;
  /**
   * Milliseconds without a byte (event or heartbeat) after which the connection counts as dropped;
   * default 45 000, three heartbeat intervals.
   */
  idleTimeout?: number | undefined;
  /** Reconnect backoff. */
  reconnect?: ReconnectOptions | undefined;
  /** Called each time a connection is open (the first one and every reconnect). */
  onOpen?: (() => void) | undefined;
  /** Called with a `stream.gap` frame: the server could not resume after the last event id. */
  onGap?: ((gap: EventStreamGap) => void) | undefined;
  /** The event id to resume after on the first connection. */
  lastEventId?: string | undefined;
  /** The wait between reconnects. */
  sleep: Sleep;
  /** The jitter source, in [0, 1). */
  random: () => number;
}

const DEFAULT_IDLE_TIMEOUT = 45_000;

/** The frame that says a resume was not possible; not an event of the API. */
const GAP_EVENT = 'stream.gap';

/**
 * A Server-Sent Events stream of typed events: parses frames with eventsource-parser, ignores
 * heartbeat comments, reconnects with backoff when the connection drops (sending
 * `Last-Event-ID`), and ends without an error when the signal aborts or the loop breaks.
 */
export class EventStream<Event> implements AsyncIterable<Event> {
  readonly #config: EventStreamConfig;
  #lastEventId: string | undefined;
  #started = false;

  constructor(config: EventStreamConfig) {
    this.#config = config;
    this.#lastEventId = config.lastEventId;
  }

  /** The id of the last event received; sent as `Last-Event-ID` when reconnecting. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** Yields events until the signal aborts, the loop breaks, or reconnecting gives up. */
  [Symbol.asyncIterator](): AsyncIterator<Event> {
    if (this.#started) throw new SwitchboardError('An EventStream can be iterated only once.');
    this.#started = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<Event, void, undefined> {
    const { signal } = this.#config;
    const reconnect = this.#config.reconnect ?? {};
    const maxAttempts = reconnect.maxAttempts ?? Number.POSITIVE_INFINITY;
    const policy: RetryPolicy = {
      maxRetries: maxAttempts,
      initialDelay: reconnect.initialDelay ?? 1_000,
      maxDelay: reconnect.maxDelay ?? 30_000,
      maxRetryAfter: Number.POSITIVE_INFINITY,
    };
    let failures = 0;
    let serverRetry: number | undefined;

    while (!signal?.aborted) {
      const connection = new AbortController();
      const onAbort = () => connection.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      let received = false;
      let failure: AttemptFailure = { kind: 'connection' };
      let cause: unknown = new APIConnectionError('The event stream closed.');
      try {
        const response = await this.#config.transport.open(this.#config.spec, {
          signal: connection.signal,
          timeout: this.#config.connectTimeout,
          correlationId: this.#config.correlationId,
          headers: {
            ...this.#config.headers,
            // The server replays what came after it (within its window) before the live events.
            ...(this.#lastEventId === undefined ? {} : { 'Last-Event-ID': this.#lastEventId }),
          },
        });
        // The server subscribes the connection before it sends the headers, so every event
        // emitted after this call is received: callers can act (send) once the stream is live.
        try {
          this.#config.onOpen?.();
        } catch (callbackError) {
          throw new OnOpenCallbackError(callbackError);
        }
        const frames = readFrames(response, connection, this.#idleTimeout(), (ms) => {
          serverRetry = ms;
        });
        for await (const frame of frames) {
          received = true;
          if (frame.kind === 'comment') continue;
          if (frame.message.event === GAP_EVENT) {
            const gap = parseEvent<EventStreamGap>(frame.message);
            if (gap !== undefined) this.#config.onGap?.(gap);
            continue;
          }
          if (frame.message.id) this.#lastEventId = frame.message.id;
          const event = parseEvent<Event>(frame.message);
          if (event !== undefined) yield event;
        }
      } catch (error) {
        if (signal?.aborted || error instanceof APIUserAbortError) return;
        // The caller's own callback failed: that is not a dropped connection to retry.
        if (error instanceof OnOpenCallbackError) throw error.cause;
        failure = attemptFailure(error);
        if (!isRetryable(failure, true)) throw error;
        cause = error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        connection.abort();
      }
      // A connection that delivered anything was healthy: the backoff starts over after it.
      failures = received ? 1 : failures + 1;
      if (failures > maxAttempts) throw cause;
      const delay =
        failure.kind === 'connection' && serverRetry !== undefined && failures === 1
          ? serverRetry
          : (retryDelay(failures, failure, policy, this.#config.random) ?? policy.maxDelay);
      try {
        await this.#config.sleep(delay, signal);
      } catch {
        return;
      }
    }
  }

  #idleTimeout(): number {
    return this.#config.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
  }
}

/** Carries an exception of the `onOpen` callback past the reconnect logic. */
class OnOpenCallbackError extends Error {
  constructor(cause: unknown) {
    super('onOpen threw', { cause });
  }
}

type Frame = { kind: 'event'; message: EventSourceMessage } | { kind: 'comment' };

/** Reads SSE frames from a response body until it ends; throws when the connection goes idle. */
async function* readFrames(
  response: Response,
  connection: AbortController,
  idleTimeout: number,
  onRetry: (ms: number) => void,
): AsyncGenerator<Frame, void, undefined> {
  if (!response.body) return;
  const queue: Frame[] = [];
  const parser = createParser({
    onEvent: (message) => queue.push({ kind: 'event', message }),
    // `: heartbeat` comments only prove the connection is alive.
    onComment: () => queue.push({ kind: 'comment' }),
    onRetry,
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let idle: ReturnType<typeof setTimeout> | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => connection.abort(new Error('event stream idle')), idleTimeout);
  };
  try {
    armIdle();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      armIdle();
      parser.feed(value);
      yield* queue.splice(0);
    }
  } finally {
    clearTimeout(idle);
    // Cancelling (rather than releasing) the reader closes the connection when the consumer stops.
    reader.cancel().catch(() => {});
  }
}

function parseEvent<Event>(message: EventSourceMessage): Event | undefined {
  try {
    return JSON.parse(message.data) as Event;
  } catch {
    // A frame that is not JSON is not a Switchboard event; skipping it keeps the stream alive.
    return undefined;
  }
}

function attemptFailure(error: unknown): AttemptFailure {
  if (error instanceof SwitchboardError && error.status !== undefined) {
    const retryAfter = error.headers?.get('retry-after') ?? null;
    return { kind: 'status', status: error.status, retryAfter };
  }
  // Anything else (a refused connection, a reset mid-body, an idle timeout) is a dropped connection.
  return { kind: 'connection' };
}
