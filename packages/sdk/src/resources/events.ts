import { contract, type EventType, type SwitchboardEventOf } from '@switchboard/contract';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
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
}

/** The live event stream (`GET /v1/events`). */
export class Events extends APIResource {
  /**
   * Opens the Server-Sent Events stream: an async iterable of typed events that reconnects by
   * itself. Events emitted while disconnected are not replayed (use webhooks for durability).
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
    const spec = routeSpec(contract.events.stream, {
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
      sleep: this._transport.sleep,
      random: this._transport.random,
    });
  }
}
