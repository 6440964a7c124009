import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type EventFilter, matchesEventFilter } from '@switchboard/contract';
import type { EventBus } from './event-bus';
import type { RecordedEvent } from './event-recorder';
import { eventFrameBytes, gapFrameBytes, HEARTBEAT_FRAME, OPENING_FRAME } from './sse-frame';
import type { ReplayPlan } from './stream-replay';

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
  /**
   * Hold the live events until {@link OpenedStream.resume} says what comes first (a stream
   * opened with `Last-Event-ID`): subscribed from the start, so nothing falls between the replay
   * and the live events.
   */
  hold?: boolean;
}

/** A stream just opened: what it sends before the live events, when it holds them. */
export interface OpenedStream {
  /** Sends the replayed events (or the gap frame), then the live events held meanwhile. */
  resume(plan: ReplayPlan): void;
}

/** An open stream and the frames it has been given since the last flush. */
interface OpenStream {
  readonly response: ServerResponse;
  pending: Buffer[];
  pendingBytes: number;
  /** Live events waiting for the replay, while it is being read. */
  held: RecordedEvent[] | undefined;
}

const HEARTBEAT_BYTES = Buffer.from(HEARTBEAT_FRAME, 'utf8');

/**
 * The live event streams (`GET /v1/events`) of this process: each open stream subscribes to its
 * customer's events on the {@link EventBus} from the moment it opens (no replay), gets one frame
 * per matching event and a heartbeat comment on a timer, and is cut when its reader stops reading
 * and the unread bytes pass the buffer limit, so a stalled client cannot grow the server's memory.
 *
 * An event's frame is encoded once for all its streams, and the frames a stream gets within one
 * tick (the events of one commit, or of a group of commits) are written to it together by one
 * flush at the end of the tick: one HTTP chunk and socket write per stream and tick instead of
 * one per frame.
 */
export class EventStreamHub {
  readonly #streams = new Set<OpenStream>();
  /** Streams with frames waiting for the flush. */
  readonly #dirty = new Set<OpenStream>();
  #flushScheduled = false;
  /** The last event encoded: the bus hands one event to all its subscribers in a row. */
  #lastEvent: RecordedEvent | undefined;
  #lastFrame: Buffer = Buffer.alloc(0);

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
  open(response: ServerResponse, input: OpenStreamInput): OpenedStream {
    response.writeHead(200, {
      ...input.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Tells nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
    });
    const stream: OpenStream = {
      response,
      pending: [],
      pendingBytes: 0,
      held: input.hold ? [] : undefined,
    };
    this.#streams.add(stream);

    const unsubscribe = this.bus.subscribe(input.customerId, (event) => {
      if (!matchesEventFilter(input.filter, event.type)) return;
      if (stream.held) stream.held.push(event);
      else this.#enqueue(stream, this.#frameOf(event));
    });
    const heartbeat = setInterval(
      () => this.#enqueue(stream, HEARTBEAT_BYTES),
      this.options.heartbeatMs,
    );
    heartbeat.unref();
    response.once('close', () => {
      unsubscribe();
      clearInterval(heartbeat);
      this.#streams.delete(stream);
      this.#dirty.delete(stream);
      stream.pending = [];
      stream.pendingBytes = 0;
    });
    // At once, not at the next flush: clients and proxies see the response start now.
    response.write(OPENING_FRAME);
    return {
      resume: (plan) => {
        const held = stream.held ?? [];
        stream.held = undefined;
        if (plan.kind === 'gap') {
          this.#enqueue(stream, gapFrameBytes(plan.gap));
        } else {
          for (const event of plan.events) {
            if (matchesEventFilter(input.filter, event.type)) {
              this.#enqueue(stream, eventFrameBytes(event));
            }
          }
        }
        // A live event the replay already carried (committed while it was read) goes once.
        const replayed = new Set(plan.kind === 'replay' ? plan.events.map((e) => e.id) : []);
        for (const event of held) {
          if (!replayed.has(event.id)) this.#enqueue(stream, this.#frameOf(event));
        }
      },
    };
  }

  /** Ends every open stream (server shutdown): clients see a clean end and reconnect elsewhere. */
  closeAll(): void {
    for (const stream of this.#streams) {
      this.#flush(stream);
      stream.response.end();
    }
  }

  #frameOf(event: RecordedEvent): Buffer {
    if (event !== this.#lastEvent) {
      this.#lastEvent = event;
      this.#lastFrame = eventFrameBytes(event);
    }
    return this.#lastFrame;
  }

  #enqueue(stream: OpenStream, frame: Buffer): void {
    const { response } = stream;
    if (response.destroyed || response.writableEnded) return;
    stream.pending.push(frame);
    stream.pendingBytes += frame.length;
    // writableLength counts what the response and its socket hold unsent: the reader's backlog,
    // to which the frames waiting for the flush add.
    if (response.writableLength + stream.pendingBytes > this.options.maxBufferBytes) {
      stream.pending = [];
      stream.pendingBytes = 0;
      this.#dirty.delete(stream);
      response.destroy();
      return;
    }
    this.#dirty.add(stream);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      // At the end of this tick, after the rest of the commit's events: a later phase of the loop
      // (setImmediate, a timer) would batch more but delays frames behind the turn's other I/O.
      process.nextTick(() => this.#flushDirty());
    }
  }

  #flushDirty(): void {
    this.#flushScheduled = false;
    for (const stream of this.#dirty) this.#flush(stream);
    this.#dirty.clear();
  }

  #flush(stream: OpenStream): void {
    const { response, pending, pendingBytes } = stream;
    if (pending.length === 0) return;
    stream.pending = [];
    stream.pendingBytes = 0;
    if (response.destroyed || response.writableEnded) return;
    response.write(
      pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes),
    );
    if (response.writableLength > this.options.maxBufferBytes) response.destroy();
  }
}
