import type { Agent } from 'undici';
import { createSafeDispatcher, type HostResolver } from '../egress/safe-dispatcher';
import { type DeliveryOutcome, deliver } from './delivery-client';
import { buildDeliveryHeaders } from './webhook-signer';

/** One signed POST to make: what the attempt sends and what its signature covers. */
export interface DeliveryRequest {
  /** The receiver's URL (checked against the address policy before it is handed over). */
  url: string;
  /** The secret the attempt is signed with. */
  secret: string;
  /** The exact body bytes (the stored event). */
  body: string;
  /** Time of the attempt (ms since the epoch), signed as Unix seconds. */
  timestamp: number;
  /** The event's correlation id (`X-Correlation-Id`). */
  correlationId: string;
  /** The event id (`X-Event-Id`, `webhook-id`). */
  eventId: string;
  /** The event type (`X-Event-Type`). */
  eventType: string;
}

/**
 * Signs and POSTs delivery attempts. Every failure of the request comes back as an outcome; only
 * a request that cannot be signed (a timestamp that is not a time) rejects.
 */
export interface DeliverySender {
  /** Signs `request`, POSTs it and classifies the answer. */
  send(request: DeliveryRequest): Promise<DeliveryOutcome>;
  /** Closes its connections once the attempts in flight have ended. */
  close(): Promise<void>;
}

/** Options of a {@link DeliverySender}: the attempt deadline and the address policy. */
export interface DeliverySenderOptions {
  /** Deadline of one attempt, connection included (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Allow http and private addresses (`WEBHOOK_ALLOW_PRIVATE_URLS`). */
  allowPrivate: boolean;
}

/**
 * The sender on the calling thread: signs each attempt and POSTs it through the safe dispatcher
 * (connect-time address check). The sender thread runs one of these too.
 */
export class InlineDeliverySender implements DeliverySender {
  readonly #agent: Agent;
  readonly #timeoutMs: number;

  /** Creates the sender; `resolver` scripts DNS in tests (rebinding). */
  constructor(options: DeliverySenderOptions & { resolver?: HostResolver | undefined }) {
    this.#timeoutMs = options.timeoutMs;
    this.#agent = createSafeDispatcher({
      allowPrivate: options.allowPrivate,
      connectTimeoutMs: options.timeoutMs,
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
  }

  send(request: DeliveryRequest): Promise<DeliveryOutcome> {
    return deliver({
      url: request.url,
      headers: buildDeliveryHeaders({
        secret: request.secret,
        body: request.body,
        timestamp: request.timestamp,
        correlationId: request.correlationId,
        eventId: request.eventId,
        eventType: request.eventType,
      }),
      body: request.body,
      timeoutMs: this.#timeoutMs,
      dispatcher: this.#agent,
    });
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
