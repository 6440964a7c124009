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
  /** The connection dropped; it is reopened after `delayMs`. */
  onDrop?: (reason: string, delayMs: number) => void;
}

/** The stream refused us (bad key, bad filter): reconnecting cannot help. */
export class StreamRefusedError extends Error {
  override readonly name = 'StreamRefusedError';
}

/** The first and the longest wait before reconnecting a dropped stream. */
const FIRST_RECONNECT_MS = 1000;
const MAX_RECONNECT_MS = 30_000;

/**
 * Follows `GET /v1/events` as a customer until `signal` aborts: frames parsed with
 * eventsource-parser, a dropped connection reopened with backoff and `Last-Event-ID` (the server
 * replays what was missed, within its window).
 * @throws {StreamRefusedError} when the server refuses the stream (400, 401, 403).
 */
export async function followEventStream(options: FollowOptions): Promise<void> {
  let lastEventId: string | undefined;
  let delay = FIRST_RECONNECT_MS;
  const query = options.events === undefined ? '' : `?events=${encodeURIComponent(options.events)}`;
  while (!options.signal.aborted) {
    try {
      const response = await request(`${options.baseUrl}/v1/events${query}`, {
        method: 'GET',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'text/event-stream',
          ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
        },
        signal: options.signal,
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
      delay = FIRST_RECONNECT_MS;
      const queue: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (message) => queue.push(message) });
      for await (const chunk of response.body) {
        parser.feed(Buffer.from(chunk).toString('utf8'));
        while (queue.length > 0) {
          const message = queue.shift() as EventSourceMessage;
          if (message.event === 'stream.gap') {
            options.onGap?.(message.data);
            continue;
          }
          if (message.id) lastEventId = message.id;
          await options.onEvent(message, correlationId);
        }
      }
    } catch (error) {
      if (options.signal.aborted) return;
      if (error instanceof StreamRefusedError) throw error;
      options.onDrop?.(error instanceof Error ? error.message : String(error), delay);
    }
    await sleep(delay, options.signal);
    delay = Math.min(delay * 2, MAX_RECONNECT_MS);
  }
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
