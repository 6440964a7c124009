import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { SwitchboardEventOf } from '../event-of';
import type { EventStreamGap, EventType } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { routeSpec } from '../internal/route-call';
import { EventStream, type ReconnectOptions } from '../sse/stream';

/** What {@link Events.stream} listens to. */
export interface EventStreamParams<Type extends EventType = EventType> {
  /** The event types to receive; omit (or `'*'`) for every type, `whatsapp.status` included. */
  events?: readonly Type[] | '*' | undefined;
  /** Ends the stream cleanly (the loop finishes without an error) when it aborts. */
  signal?: AbortSignal | undefined;
  /** Reconnect backoff after a dropped connection. */
  reconnect?: ReconnectOptions | undefined;
  /**
   * Milliseconds without any byte (the server sends a heartbeat every 15 s) after which the
   * connection counts as dropped and is reopened; default 45 000.
   */
  idleTimeout?: number | undefined;
  /**
   * Called each time a connection is open, the first one and every reconnect. Events emitted
   * after it are received, so start the action you want to follow (a send) once it was called.
   */
  onOpen?: (() => void) | undefined;
  /**
   * Called when a reconnect could not resume where the last connection stopped (the server
   * keeps a few minutes of events): events were missed; fetch what you need from the API.
   */
  onGap?: ((gap: EventStreamGap) => void) | undefined;
  /** Resume after this event id on the first connection too (a stream you restart yourself). */
  lastEventId?: string | undefined;
}

/** The live event stream (`GET /v1/events`). */
export class Events extends APIResource {
  /**
   * Opens the Server-Sent Events stream: an async iterable of typed events that reconnects by
   * itself and resumes where it stopped: the server replays the events recorded while it was
   * disconnected (within its replay window, 5 minutes by default; `onGap` hears when that was
   * not possible). Webhooks remain the durable path.
   * `options.timeout` bounds each connection attempt, not the stream.
   * @example
   * for await (const event of client.events.stream({ events: ['message.delivered'], signal })) {
   *   console.log(event.data.messageId);
   * }
   */
  stream<Type extends EventType = EventType>(
    params: EventStreamParams<Type> = {},
    options: RequestOptions = {},
  ): EventStream<SwitchboardEventOf<Type>> {
    const { events } = params;
    const filter = events === undefined || events === '*' ? undefined : events.join(',');
    const spec = routeSpec(routeTable.events.stream, {
      query: { events: filter === '' ? undefined : filter },
    });
    return new EventStream<SwitchboardEventOf<Type>>({
      transport: this._transport,
      spec,
      headers: options.headers,
      correlationId: options.correlationId,
      signal: params.signal ?? options.signal,
      connectTimeout: options.timeout,
      idleTimeout: params.idleTimeout,
      reconnect: params.reconnect,
      onOpen: params.onOpen,
      onGap: params.onGap,
      lastEventId: params.lastEventId,
      sleep: this._transport.sleep,
      random: this._transport.random,
    });
  }
}
