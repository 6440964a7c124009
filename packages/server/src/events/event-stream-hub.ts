import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type EventFilter, matchesEventFilter } from '@switchboard/contract';
import type { EventBus } from './event-bus';
import { eventFrame, HEARTBEAT_FRAME, OPENING_FRAME } from './sse-frame';

/** Options of {@link EventStreamHub}. */
export interface EventStreamHubOptions {
  /** Interval of the `: heartbeat` comment (`SSE_HEARTBEAT_MS`). */
  heartbeatMs: number;
  /**
   * Bytes a connection may leave unread in the server's buffers (`SSE_MAX_BUFFER_BYTES`); past
   * it the reader is too slow to keep up and is disconnected.
   */
  maxBufferBytes: number;
}

/** One stream to open. */
export interface OpenStreamInput {
  /** The customer whose events the stream carries; nobody else's ever reach it. */
  customerId: string;
  /** Which event types to send. */
  filter: EventFilter;
  /** Headers to send besides the event-stream ones (request and correlation ids, rate limits). */
  headers: OutgoingHttpHeaders;
}

/**
 * The live event streams (`GET /v1/events`) of this process: each open stream subscribes to its
 * customer's events on the {@link EventBus} from the moment it opens (no replay), writes one frame
 * per matching event and a heartbeat comment on a timer, and is cut when its reader stops reading
 * and the unread bytes pass the buffer limit, so a stalled client cannot grow the server's memory.
 */
export class EventStreamHub {
  readonly #streams = new Set<ServerResponse>();

  /** Creates the hub over the bus the events are published on. */
  constructor(
    private readonly bus: EventBus,
    private readonly options: EventStreamHubOptions,
  ) {}

  /** How many streams are open. */
  get size(): number {
    return this.#streams.size;
  }

  /** Starts streaming on a response whose headers have not been sent. */
  open(response: ServerResponse, input: OpenStreamInput): void {
    response.writeHead(200, {
      ...input.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Tells nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
    });
    this.#streams.add(response);

    const write = (frame: string) => {
      if (response.destroyed || response.writableEnded) return;
      response.write(frame);
      // writableLength counts what the response and its socket hold unsent: the reader's backlog.
      if (response.writableLength > this.options.maxBufferBytes) response.destroy();
    };
    const unsubscribe = this.bus.subscribe(input.customerId, (event) => {
      if (matchesEventFilter(input.filter, event.type)) write(eventFrame(event));
    });
    const heartbeat = setInterval(() => write(HEARTBEAT_FRAME), this.options.heartbeatMs);
    heartbeat.unref();
    response.once('close', () => {
      unsubscribe();
      clearInterval(heartbeat);
      this.#streams.delete(response);
    });
    write(OPENING_FRAME);
  }

  /** Ends every open stream (server shutdown): clients see a clean end and reconnect elsewhere. */
  closeAll(): void {
    for (const response of this.#streams) response.end();
  }
}
