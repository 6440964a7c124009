import type { EventSourceMessage } from 'eventsource-parser';
import { request } from 'undici';
import { buildDeliveryHeaders } from '../webhooks/webhook-signer';
import type { CustomerApi } from './customer-api';
import { followEventStream } from './event-stream-follower';

/** What `switchboard listen` follows and where it forwards. */
export interface EventForwarderOptions extends CustomerApi {
  /** The local URL each event is POSTed to. */
  forwardTo: string;
  /** The event types to follow (comma-separated), or undefined for all. */
  events: string | undefined;
  /** The secret the forwarded deliveries are signed with. */
  secret: string;
  /** Ends the forwarding. */
  signal: AbortSignal;
  /** One line per delivery, gap and reconnect. */
  log: (line: string) => void;
  /** Deadline of one forwarded POST (10 s, as webhooks). */
  timeoutMs?: number;
  /** The stream's liveness deadline (see {@link followEventStream}). */
  idleTimeoutMs?: number;
  /** The stream's first reconnect delay (see {@link followEventStream}). */
  reconnectMs?: number;
}

/**
 * `switchboard listen`: follows the customer's event stream and POSTs each event to a local URL,
 * signed exactly like a webhook delivery (`X-Signature`, `X-Timestamp`, the Standard Webhooks
 * headers: the dispatcher's own header builder) with a local secret, so a receiver under
 * development runs its real verification code with no public URL and no tunnel. Events are
 * forwarded one at a time, in order; a receiver that fails is reported, not retried.
 * @throws {StreamRefusedError} when the server refuses the stream.
 */
export function forwardEvents(options: EventForwarderOptions): Promise<void> {
  return followEventStream({
    ...options,
    onOpen: () =>
      options.log(`Ready: forwarding ${options.events ?? 'every event'} to ${options.forwardTo}`),
    onEvent: (message, correlationId) => forwardOne(options, message, correlationId),
    onGap: (data) => options.log(`! events were missed while disconnected: ${data}`),
    onDrop: (reason, delayMs) =>
      options.log(`! stream dropped (${reason}); reconnecting in ${delayMs / 1000} s`),
  });
}

async function forwardOne(
  options: EventForwarderOptions,
  message: EventSourceMessage,
  correlationId: string,
): Promise<void> {
  const started = Date.now();
  const eventId = message.id ?? '';
  const type = message.event ?? 'message';
  try {
    const response = await request(options.forwardTo, {
      method: 'POST',
      headers: buildDeliveryHeaders({
        secret: options.secret,
        body: message.data,
        timestamp: Date.now(),
        correlationId,
        eventId,
        eventType: type,
      }),
      body: message.data,
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? 10_000)]),
    });
    await response.body.dump();
    options.log(`--> ${type} ${eventId} [${response.statusCode}] ${Date.now() - started} ms`);
  } catch (error) {
    if (options.signal.aborted) return;
    const reason = error instanceof Error ? error.message : String(error);
    options.log(`--> ${type} ${eventId} [failed: ${reason}]`);
  }
}
