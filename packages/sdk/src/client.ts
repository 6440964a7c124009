import type { APIPromise } from './core/api-promise';
import { type RequestOptions, Transport } from './core/request';
import { DEFAULT_RETRY_POLICY, type Sleep, sleep } from './core/retry';
import type { Operations } from './generated/api-types';
import { routeTable } from './generated/route-table';
import { readEnv } from './internal/env';
import { callRoute } from './internal/route-call';
import type { RouteData } from './internal/route-types';
import { Attachments } from './resources/attachments';
import { Callbacks } from './resources/callbacks';
import { Capabilities } from './resources/capabilities';
import { Chats } from './resources/chats';
import { ContactErasures } from './resources/contact-erasures';
import { Events } from './resources/events';
import { Messages } from './resources/messages';
import { Numbers } from './resources/numbers';
import { Sandbox } from './resources/sandbox';
import { Webhooks } from './resources/webhooks';
import { WhatsApp } from './resources/whatsapp';

/** The default base URL: a Switchboard server running locally. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';
/** The default per-attempt timeout: one minute. */
export const DEFAULT_TIMEOUT = 60_000;

/** Options of {@link Switchboard}. */
export interface ClientOptions {
  /** The API key; defaults to the `SWITCHBOARD_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /**
   * The server's base URL; defaults to `SWITCHBOARD_URL`, then `SWITCHBOARD_BASE_URL`, then
   * `http://127.0.0.1:3000` (`resolveServerUrl` also reads the server's own `PORT`).
   */
  baseUrl?: string | undefined;
  /** Retries after a failed attempt (408, 429, 5xx, connection errors); default 2. */
  maxRetries?: number | undefined;
  /** Milliseconds one attempt may take; default 60 000. */
  timeout?: number | undefined;
  /** A fetch implementation; defaults to the runtime's `fetch`. */
  fetch?: typeof fetch | undefined;
  /** Headers sent on every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** Replaces the wait between retries and reconnects (tests, custom schedulers). */
  sleep?: Sleep | undefined;
}

/** The health report of `GET /health` (not wrapped in the envelope). */
export type HealthResponse = RouteData<Operations['health']['get']>;

/**
 * The Switchboard API client: one namespace per resource, typed from the API contract.
 * @example
 * const client = new Switchboard({ apiKey: process.env.SWITCHBOARD_API_KEY });
 * const message = await client.messages.send({ to: '+14155550100', content: { text: 'Hi' } });
 */
export class Switchboard {
  /** The base URL requests go to, without a trailing slash. */
  readonly baseUrl: string;
  readonly #transport: Transport;

  /** Sending messages, listing them, and every operation on one message. */
  readonly messages: Messages;
  /** Group chats and per-chat state (read, unread, typing). */
  readonly chats: Chats;
  /** Reachability checks for phone numbers. */
  readonly capabilities: Capabilities;
  /** The account's sender numbers and addresses. */
  readonly numbers: Numbers;
  /** Forgetting contacts: erase everything held about one address. */
  readonly contactErasures: ContactErasures;
  /** Webhook registrations, test deliveries and the delivery log. */
  readonly webhooks: Webhooks;
  /** The signing secret and delivery log of per-message `callbackUrl`s. */
  readonly callbacks: Callbacks;
  /** WhatsApp sessions of the account's numbers. */
  readonly whatsapp: WhatsApp;
  /** The live event stream. */
  readonly events: Events;
  /** Downloads of inbound attachments through their pre-signed URLs. */
  readonly attachments: Attachments;
  /** Test helpers that make the simulated world act; numbers served by the simulator only. */
  readonly sandbox: Sandbox;

  constructor(options: ClientOptions = {}) {
    const baseUrl =
      options.baseUrl ??
      readEnv('SWITCHBOARD_URL') ??
      readEnv('SWITCHBOARD_BASE_URL') ??
      DEFAULT_BASE_URL;
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') {
      throw new TypeError('No fetch implementation: pass `fetch` to `new Switchboard()`.');
    }
    this.#transport = new Transport({
      apiKey: options.apiKey ?? readEnv('SWITCHBOARD_API_KEY'),
      baseUrl: this.baseUrl,
      timeout: options.timeout ?? DEFAULT_TIMEOUT,
      retryPolicy: {
        ...DEFAULT_RETRY_POLICY,
        maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      },
      // Called through a closure: browsers throw "Illegal invocation" when fetch loses its `this`.
      fetch: (input, init) => fetchImpl(input, init),
      defaultHeaders: { ...options.defaultHeaders },
      sleep: options.sleep ?? sleep,
      random: Math.random,
    });
    this.messages = new Messages(this.#transport);
    this.chats = new Chats(this.#transport);
    this.capabilities = new Capabilities(this.#transport);
    this.numbers = new Numbers(this.#transport);
    this.contactErasures = new ContactErasures(this.#transport);
    this.webhooks = new Webhooks(this.#transport);
    this.callbacks = new Callbacks(this.#transport);
    this.whatsapp = new WhatsApp(this.#transport);
    this.events = new Events(this.#transport);
    this.attachments = new Attachments(this.#transport);
    this.sandbox = new Sandbox(this.#transport);
  }

  /** The `requestId` of the last response this client received, success or failure. */
  get lastRequestId(): string | undefined {
    return this.#transport.lastRequestId;
  }

  /** The service's health (`GET /health`); needs no API key and is not rate limited. */
  health(options?: RequestOptions): APIPromise<HealthResponse> {
    return callRoute(this.#transport, routeTable.health.get, { envelope: false }, options);
  }
}
