import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request } from 'undici';
import type { CustomerApi } from './customer-api';

/** What {@link followEventStream} follows and whom it tells. */
export interface FollowOptions extends CustomerApi {
  /** The event types (comma-separated), or undefined for all. */
  events: string | undefined;
  /** Ends the following. */
  signal: AbortSignal;
  /** Each connection open, with the correlation id the server gave it. */
  onOpen?: (correlationId: string) => void;
  /** Each event frame, in order (awaited before the next). */
  onEvent: (message: EventSourceMessage, correlationId: string) => Promise<void> | void;
  /** The server could not resume after the last event (`stream.gap` data). */
  onGap?: (data: string) => void;
  /** The connection dropped (or could not be opened); it is reopened after `delayMs`. */
  onDrop?: (reason: string, delayMs: number) => void;
  /**
   * Milliseconds without a byte (an event or the server's heartbeat, every 15 s) after which the
   * connection counts as dead and is reopened; default {@link DEFAULT_IDLE_TIMEOUT_MS}.
   */
  idleTimeoutMs?: number;
  /** The first wait before reconnecting (doubling up to 30 s); default 1 000. */
  reconnectMs?: number;
}

/** Three heartbeat intervals (the server sends `: heartbeat` every 15 s) without a byte. */
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

/** The stream went silent: no event and no heartbeat within the deadline. */
class StreamIdleError extends Error {
  override readonly name = 'StreamIdleError';
}

/** The stream refused us (bad key, bad filter): reconnecting cannot help. */
export class StreamRefusedError extends Error {
  override readonly name = 'StreamRefusedError';
}

/** The first and the longest wait before reconnecting a dropped stream. */
const FIRST_RECONNECT_MS = 1000;
const MAX_RECONNECT_MS = 30_000;

/**
 * Follows `GET /v1/events` as a customer until `signal` aborts: the bytes decoded as one UTF-8
 * stream (a character split across two chunks stays whole), frames parsed with eventsource-parser
 * and handed over as they came (`data` unchanged, so `listen` signs and forwards exactly what the
 * server sent), a silent connection (no byte within `idleTimeoutMs`) and a dropped one reopened
 * with backoff and `Last-Event-ID` (the server replays what was missed, within its window).
 * @throws {StreamRefusedError} when the server refuses the stream (400, 401, 403).
 */
export async function followEventStream(options: FollowOptions): Promise<void> {
  let lastEventId: string | undefined;
  const firstDelay = options.reconnectMs ?? FIRST_RECONNECT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  let delay = firstDelay;
  const query = options.events === undefined ? '' : `?events=${encodeURIComponent(options.events)}`;
  while (!options.signal.aborted) {
    // One connection: ended by the caller's signal, or by the liveness deadline.
    const connection = new AbortController();
    const stop = () => connection.abort(options.signal.reason);
    options.signal.addEventListener('abort', stop, { once: true });
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          connection.abort(
            new StreamIdleError(`no event or heartbeat for ${idleTimeoutMs / 1000} s`),
          ),
        idleTimeoutMs,
      );
    };
    try {
      armIdle();
      const response = await request(`${options.baseUrl}/v1/events${query}`, {
        method: 'GET',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'text/event-stream',
          ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
        },
        signal: connection.signal,
      });
      if (response.statusCode !== 200) {
        const body = await response.body.text();
        if ([400, 401, 403].includes(response.statusCode)) {
          throw new StreamRefusedError(`the event stream answered ${response.statusCode}: ${body}`);
        }
        throw new Error(`the event stream answered ${response.statusCode}`);
      }
      const correlation = response.headers['x-correlation-id'];
      const correlationId = typeof correlation === 'string' ? correlation : '';
      options.onOpen?.(correlationId);
      delay = firstDelay;
      const queue: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (message) => queue.push(message) });
      // A streaming decoder: a multi-byte character cut between two chunks is held, not garbled.
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        armIdle();
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
        while (queue.length > 0) {
          const message = queue.shift() as EventSourceMessage;
          if (message.event === 'stream.gap') {
            options.onGap?.(message.data);
            continue;
          }
          if (message.id) lastEventId = message.id;
          await options.onEvent(message, correlationId);
        }
        armIdle();
      }
      throw new Error('the server closed the stream');
    } catch (error) {
      if (options.signal.aborted) return;
      if (error instanceof StreamRefusedError) throw error;
      const reason =
        connection.signal.reason instanceof StreamIdleError ? connection.signal.reason : error;
      options.onDrop?.(describe(reason), delay);
    } finally {
      clearTimeout(idle);
      options.signal.removeEventListener('abort', stop);
      connection.abort();
    }
    await sleep(delay, options.signal);
    delay = Math.min(delay * 2, MAX_RECONNECT_MS);
  }
}

/** A failure as one line: the error's message, with its cause's (undici's "connect ECONNREFUSED…"). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
