import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  rfc2822,
  segmentsOf,
  signTwilioCall,
  twilioErrorBody,
  twilioSid,
} from './fake-twilio-resources';

/** What happens to messages sent to a recipient. */
export interface FakeTwilioRecipient {
  /** `delivered` (default), or a carrier failure reported by callback with `errorCode`. */
  outcome?: 'delivered' | 'undelivered' | 'failed';
  /** The `ErrorCode` of a failure (30003 unreachable, 30006 landline, 30007 filtered, …). */
  errorCode?: number;
  /** Lookup v2 line type (default `mobile`); `invalid` answers `valid: false`. */
  lineType?: string;
}

/** Fault switches: each counts down as calls use it. */
export interface FakeTwilioFaults {
  /** The next N message creations answer this 5xx without creating anything. */
  serverErrors?: { count: number; status?: number };
  /** The next N API calls answer 429 with `Retry-After`. */
  rateLimited?: { count: number; retryAfterSeconds?: number };
  /**
   * The next N creations (after the first `skip`, 0 by default) create the message but answer
   * only after `delayMs`: a timeout, or a later part of a multi-part send still on its way while
   * the first part's status callbacks arrive.
   */
  slowCreates?: { count: number; delayMs: number; skip?: number };
  /** The next N creations create the message, then answer 500 (it exists all the same). */
  createdThenError?: { count: number };
  /** Status callbacks arrive final first: `delivered` before `sent`. */
  outOfOrder?: boolean;
  /** Every status callback is posted twice. */
  duplicateCallbacks?: boolean;
}

/** A message the fake holds, in Twilio's own JSON shape. */
export interface FakeTwilioMessage {
  account_sid: string;
  api_version: '2010-04-01';
  body: string;
  date_created: string;
  date_sent: string | null;
  date_updated: string;
  direction: 'inbound' | 'outbound-api';
  error_code: number | null;
  error_message: string | null;
  from: string;
  messaging_service_sid: string | null;
  num_media: string;
  num_segments: string;
  price: string | null;
  price_unit: string;
  sid: string;
  status: string;
  subresource_uris: { media: string; feedback: string };
  to: string;
  uri: string;
  /** Not part of Twilio's JSON: the media URLs given (outbound) and the callback URL. */
  readonly extra: {
    mediaUrls: string[];
    /** The SIDs (`ME…`) of an inbound message's media. */
    mediaSids: string[];
    statusCallback?: string;
    createdAt: number;
  };
}

/** A file of an inbound MMS. */
export interface FakeTwilioMedia {
  /** MIME type. */
  contentType: string;
  /** The bytes. */
  data: Uint8Array;
}

/** Keywords a Messaging Service's Advanced Opt-Out answers (upper case, whole message). */
export interface FakeTwilioKeywords {
  /** Opt-out keywords (`OptOutType=STOP`). */
  stop: readonly string[];
  /** Opt-in keywords (`OptOutType=START`). */
  start: readonly string[];
  /** Help keywords (`OptOutType=HELP`). */
  help: readonly string[];
}

/** Settings of a fake Twilio. */
export interface FakeTwilioOptions {
  /** The account SID (a random `AC…` by default). */
  accountSid?: string;
  /** The auth token (random by default). */
  authToken?: string;
  /** Milliseconds between two lifecycle steps of a sent message (default 20). */
  stepMs?: number;
  /** Loopback port (random by default). */
  port?: number;
}

/** Twilio's error text for the codes the fake answers. */
const ERRORS = {
  20003: 'Authenticate',
  20404: 'The requested resource was not found',
  20429: 'Too Many Requests',
  20500: 'Internal Server Error',
  21211: "Invalid 'To' Phone Number",
  21602: 'Message body is required.',
  21603: "A 'From' or 'MessagingServiceSid' parameter is required to send a message",
  21604: "A 'To' phone number is required.",
  21606:
    "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination.",
  21610: 'Attempt to send to unsubscribed recipient',
  21617: 'The concatenated message body exceeds the 1600 character limit.',
  21623: 'Number of media files exceeds allowed limit',
} as const;

/** The error codes the fake answers API calls with. */
export const FAKE_TWILIO_ERROR_CODES: readonly number[] = Object.keys(ERRORS).map(Number);

/**
 * Twilio's default opt-out, opt-in and help keywords (see `FAKE_TWILIO_FIDELITY`, "opt-out
 * keywords"): a message that is exactly one of them, any case, changes the opt-out list.
 */
const TWILIO_DEFAULT_KEYWORDS: FakeTwilioKeywords = {
  stop: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'],
  start: ['START', 'YES', 'UNSTOP'],
  help: ['HELP', 'INFO'],
};
const E164 = /^\+[1-9]\d{6,14}$/;

/** Area codes of Canada in the North American Numbering Plan (+1). */
const CANADIAN_AREA_CODES = new Set(
  (
    '204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438 ' +
    '450 460 468 474 506 514 519 548 579 581 584 587 600 604 613 639 647 672 683 705 709 742 ' +
    '753 778 780 782 807 819 825 867 873 879 902 905'
  ).split(' '),
);

/** True for a Canadian number (+1 and a Canadian area code). */
function isCanadianNumber(phoneNumber: string): boolean {
  return /^\+1\d{10}$/.test(phoneNumber) && CANADIAN_AREA_CODES.has(phoneNumber.slice(2, 5));
}

/**
 * Webhook connection overrides of a callback URL's fragment (`#rc=3&rp=5xx`): how often Twilio
 * tries again and on which failures. Defaults when absent: one retry, on connect failures only.
 */
function connectionOverridesOf(url: string): { retries: number; policy: Set<string> } {
  const hash = url.indexOf('#');
  const fragment = new URLSearchParams(hash === -1 ? '' : url.slice(hash + 1));
  const count = Number(fragment.get('rc') ?? '1');
  return {
    retries: Number.isInteger(count) ? Math.min(Math.max(count, 0), 5) : 1,
    policy: new Set((fragment.get('rp') ?? 'ct').split(',').map((rule) => rule.trim())),
  };
}

/**
 * The routes the fake serves, named by Twilio's own path templates (its OpenAPI files): the first
 * capture is the account SID (the phone number for Lookup), the second the resource SID.
 */
export const FAKE_TWILIO_ROUTES = [
  {
    id: 'GET /v2/PhoneNumbers/{PhoneNumber}',
    method: 'GET',
    pattern: /^\/v2\/PhoneNumbers\/([^/]+)$/,
  },
  {
    id: 'GET /2010-04-01/Accounts/{Sid}.json',
    method: 'GET',
    pattern: /^\/2010-04-01\/Accounts\/([^/]+)\.json$/,
  },
  {
    id: 'GET /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json',
    method: 'GET',
    pattern: /^\/2010-04-01\/Accounts\/([^/]+)\/IncomingPhoneNumbers\.json$/,
  },
  {
    id: 'POST /2010-04-01/Accounts/{AccountSid}/Messages.json',
    method: 'POST',
    pattern: /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/,
  },
  {
    id: 'GET /2010-04-01/Accounts/{AccountSid}/Messages.json',
    method: 'GET',
    pattern: /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/,
  },
  {
    id: 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json',
    method: 'GET',
    pattern: /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\/([A-Z]{2}[0-9a-f]{32})\.json$/,
  },
  {
    id: 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media.json',
    method: 'GET',
    pattern: /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\/([A-Z]{2}[0-9a-f]{32})\/Media\.json$/,
  },
  {
    id: 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media/{Sid}',
    method: 'GET',
    pattern:
      /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\/[A-Z]{2}[0-9a-f]{32}\/Media\/(ME[0-9a-f]{32})$/,
  },
] as const;

/** The name of a route the fake serves. */
type FakeTwilioRouteId = (typeof FAKE_TWILIO_ROUTES)[number]['id'];

/** The kinds of call the fake posts to the customer's URLs. */
export type FakeTwilioCallbackKind = 'status' | 'inbound';

/** An HTTP error answer with a Twilio error body. */
class FakeTwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: keyof typeof ERRORS,
    readonly extraHeaders: Record<string, string> = {},
  ) {
    super(ERRORS[code]);
  }
}

/**
 * A faithful local Twilio for tests and manual trials (`pnpm fake:twilio`): the Messaging API's
 * Messages resource (create, fetch, list with Twilio's filters and paging), the Account resource,
 * Lookup v2 line type intelligence, media behind Basic auth with a redirect to a CDN, status
 * callbacks and inbound messages signed with `X-Twilio-Signature`, Twilio's default STOP/START
 * handling (21610), and fault switches. Shapes follow Twilio's OpenAPI description (its tests
 * validate them against `twilio-openapi-excerpt.json`).
 */
export class FakeTwilio {
  /** The account SID. */
  readonly accountSid: string;
  /** The auth token: Basic auth password and the key of every signature. */
  readonly authToken: string;
  /**
   * API keys (`SK…` → secret). A Standard key (the default) reaches every resource but the
   * Account (and Keys) resources, which answer it 401 / 20003; keys in `mainApiKeys` reach all.
   */
  readonly apiKeys = new Map<string, string>();
  /** The SIDs of `apiKeys` that are Main keys. */
  readonly mainApiKeys = new Set<string>();
  /**
   * True when the account was approved for Canadian line type data; until then Lookup answers a
   * Canadian number's `line_type_intelligence` with `type: null` and `error_code: 60601`.
   */
  canadianLookupApproved = false;
  /**
   * Advanced Opt-Out of the account's Messaging Service: its keywords replace the defaults and
   * inbound keyword messages carry `OptOutType`. Undefined: Twilio's default handling.
   */
  advancedOptOut: FakeTwilioKeywords | undefined;
  /** Numbers the account owns, with the URL Twilio calls when a message comes in. */
  readonly numbers = new Map<string, { smsUrl?: string }>();
  /** Messaging Services (`MG…`) and their sender pools. */
  readonly services = new Map<string, string[]>();
  /** What happens to each recipient; unknown recipients get their messages delivered. */
  readonly recipients = new Map<string, FakeTwilioRecipient>();
  /** Every message, sent and received, by SID. */
  readonly messages = new Map<string, FakeTwilioMessage>();
  /** `from|to` pairs opted out by a STOP from `to`. */
  readonly optOuts = new Set<string>();
  /** Fault switches, consumed as calls happen. */
  faults: FakeTwilioFaults = {};
  /** Every API request the fake answered: method, path and the form it carried. */
  readonly requests: { method: string; path: string; form: [string, string][] }[] = [];
  /** Every callback the fake posted (each try), and the status the receiver answered. */
  readonly callbacks: {
    kind: FakeTwilioCallbackKind;
    url: string;
    params: [string, string][];
    status: number;
  }[] = [];
  /** Lookup calls made (each is a paid call on the real Twilio). */
  lookups = 0;
  /**
   * Fetch every `MediaUrl` before a message is sent, as Twilio does (off by default: tests use
   * URLs on hosts that do not exist). A URL that does not answer 2xx fails the message with 11200;
   * what was fetched is kept in `fetchedMedia`.
   */
  fetchMedia = false;
  /** The bytes fetched from each `MediaUrl`, when `fetchMedia` is on. */
  readonly fetchedMedia = new Map<string, FakeTwilioMedia>();
  /** Milliseconds between two lifecycle steps. */
  stepMs: number;

  readonly #port: number;
  readonly #media = new Map<string, FakeTwilioMedia>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #pending = new Set<Promise<unknown>>();
  /** The last status callback run of each message (by SID) still going: the next waits for it. */
  readonly #callbackChains = new Map<string, Promise<void>>();
  #server: Server | undefined;
  #baseUrl = '';

  /** A fake with one account; call `start` to serve it. */
  constructor(options: FakeTwilioOptions = {}) {
    this.accountSid = options.accountSid ?? twilioSid('AC');
    this.authToken = options.authToken ?? twilioSid('').padEnd(32, '0');
    this.stepMs = options.stepMs ?? 20;
    this.#port = options.port ?? 0;
  }

  /** The base URL of both the Messaging API and Lookup (`http://127.0.0.1:<port>`). */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  /** Serves the fake on loopback; answers its base URL. */
  async start(): Promise<string> {
    const server = createServer((request, response) => {
      void this.#serve(request, response);
    });
    await new Promise<void>((resolve) => server.listen(this.#port, '127.0.0.1', resolve));
    this.#server = server;
    this.#baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.#baseUrl;
  }

  /** Cancels pending lifecycle steps and closes the server. */
  async stop(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#pending]);
    const server = this.#server;
    this.#server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  /** Buys a number for the account, its incoming messages going to `smsUrl`. */
  addNumber(phoneNumber: string, smsUrl?: string): void {
    this.numbers.set(phoneNumber, smsUrl === undefined ? {} : { smsUrl });
  }

  /** Messages sent (not received), oldest first. */
  sent(): FakeTwilioMessage[] {
    return [...this.messages.values()].filter((message) => message.direction === 'outbound-api');
  }

  /** Waits until every posted callback was answered. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /**
   * A contact texts one of the account's numbers: stored, its media hosted, then posted (signed)
   * to the number's `smsUrl` as Twilio does. STOP and START words change the opt-out list first,
   * as Twilio's default opt-out handling does. Answers the message and the receiver's answer.
   */
  async inbound(input: {
    from: string;
    to: string;
    body?: string;
    media?: readonly FakeTwilioMedia[];
    /** Use this SID (to replay a call exactly); a new one by default. */
    sid?: string;
    /**
     * The call never reaches the receiver (its host down, a network failure: Twilio logs 11200
     * and, without connection overrides, gives up); the message is stored all the same.
     */
    undelivered?: boolean;
  }): Promise<{ message: FakeTwilioMessage; status: number; body: string }> {
    const number = this.numbers.get(input.to);
    if (!number?.smsUrl) throw new Error(`${input.to} has no smsUrl in the fake Twilio`);
    const media = input.media ?? [];
    const body = input.body ?? '';
    const keywords = this.advancedOptOut ?? TWILIO_DEFAULT_KEYWORDS;
    const word = body.trim().toUpperCase();
    const optOutType = keywords.stop.includes(word)
      ? 'STOP'
      : keywords.start.includes(word)
        ? 'START'
        : keywords.help.includes(word)
          ? 'HELP'
          : undefined;
    if (optOutType === 'STOP') this.optOuts.add(`${input.to}|${input.from}`);
    if (optOutType === 'START') this.optOuts.delete(`${input.to}|${input.from}`);
    const sid = input.sid ?? twilioSid(media.length > 0 ? 'MM' : 'SM');
    const message =
      this.messages.get(sid) ??
      this.#store(sid, {
        from: input.from,
        to: input.to,
        body,
        direction: 'inbound',
        status: 'received',
        mediaUrls: [],
        numMedia: media.length,
        serviceSid: null,
      });
    const params: [string, string][] = [
      ['ToCountry', 'US'],
      ['SmsMessageSid', sid],
      ['NumMedia', String(media.length)],
      ['SmsSid', sid],
      ['SmsStatus', 'received'],
      ['Body', body],
      ['To', input.to],
      ['NumSegments', message.num_segments],
      ['MessageSid', sid],
      ['AccountSid', this.accountSid],
      ['From', input.from],
      ['FromCountry', 'US'],
      ['ApiVersion', '2010-04-01'],
      ...(this.advancedOptOut && optOutType !== undefined
        ? [['OptOutType', optOutType] as [string, string]]
        : []),
    ];
    message.extra.mediaSids.length = 0;
    media.forEach((file, index) => {
      const mediaSid = twilioSid('ME');
      this.#media.set(mediaSid, file);
      message.extra.mediaSids.push(mediaSid);
      params.push([`MediaContentType${index}`, file.contentType]);
      params.push([
        `MediaUrl${index}`,
        `${this.#baseUrl}${this.#accountPath()}/Messages/${sid}/Media/${mediaSid}`,
      ]);
    });
    if (input.undelivered) return { message, status: 0, body: '' };
    const answer = await this.#post('inbound', number.smsUrl, params);
    return { message, ...answer };
  }

  /** Posts a status callback of `sid` now, as Twilio would (for tests that drive statuses). */
  async statusCallback(
    sid: string,
    status: string,
    errorCode?: number,
  ): Promise<{ status: number; body: string }> {
    const message = this.messages.get(sid);
    const url = message?.extra.statusCallback;
    if (!message || url === undefined) throw new Error(`${sid} has no status callback`);
    return this.#post('status', url, this.#callbackParams(message, status, errorCode));
  }

  // ---- HTTP -------------------------------------------------------------------------------

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', this.#baseUrl);
      const form = [...new URLSearchParams(raw).entries()];
      if (url.pathname.startsWith('/_fake/')) {
        await this.#control(request.method ?? 'GET', url, raw, response);
        return;
      }
      if (url.pathname.startsWith('/_cdn/')) {
        this.#cdn(url, response);
        return;
      }
      this.requests.push({
        method: request.method ?? 'GET',
        path: url.pathname + url.search,
        form,
      });
      const principal = this.#authenticate(request);
      const limited = this.faults.rateLimited;
      if (limited && limited.count > 0) {
        limited.count -= 1;
        throw new FakeTwilioError(429, 20429, {
          'retry-after': String(limited.retryAfterSeconds ?? 1),
        });
      }
      const answer = await this.#route(request.method ?? 'GET', url, form, principal);
      if (answer.redirect) {
        response.writeHead(307, { location: answer.redirect }).end();
        return;
      }
      send(response, answer.status, answer.body);
    } catch (error) {
      if (error instanceof FakeTwilioError) {
        send(
          response,
          error.status,
          twilioErrorBody(error.code, error.message, error.status),
          error.extraHeaders,
        );
        return;
      }
      send(response, 500, twilioErrorBody(20500, ERRORS[20500], 500));
    }
  }

  /** Who the call authenticates as: the account (auth token), a Main key or a Standard key. */
  #authenticate(request: IncomingMessage): 'account' | 'main-key' | 'standard-key' {
    const header = request.headers.authorization ?? '';
    const [scheme, encoded] = header.split(' ');
    if (scheme !== 'Basic' || encoded === undefined) throw new FakeTwilioError(401, 20003);
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (user === this.accountSid && password === this.authToken) return 'account';
    if (this.apiKeys.has(user) && this.apiKeys.get(user) === password) {
      return this.mainApiKeys.has(user) ? 'main-key' : 'standard-key';
    }
    throw new FakeTwilioError(401, 20003);
  }

  async #route(
    method: string,
    url: URL,
    form: [string, string][],
    principal: 'account' | 'main-key' | 'standard-key',
  ): Promise<{ status: number; body?: unknown; redirect?: string }> {
    const path = url.pathname;
    let id: FakeTwilioRouteId | undefined;
    let match: RegExpExecArray | null = null;
    for (const route of FAKE_TWILIO_ROUTES) {
      match = route.method === method ? route.pattern.exec(path) : null;
      if (match) {
        id = route.id;
        break;
      }
    }
    if (id === undefined || !match) throw new FakeTwilioError(404, 20404);
    if (id !== 'GET /v2/PhoneNumbers/{PhoneNumber}' && match[1] !== this.accountSid) {
      // Another account's resources: Twilio answers as if they did not exist.
      throw new FakeTwilioError(404, 20404);
    }
    // A Standard API key reaches everything but the Accounts (and Keys) resources.
    if (principal === 'standard-key' && id === 'GET /2010-04-01/Accounts/{Sid}.json') {
      throw new FakeTwilioError(401, 20003);
    }
    switch (id) {
      case 'GET /v2/PhoneNumbers/{PhoneNumber}':
        return { status: 200, body: this.#lookup(decodeURIComponent(match[1] ?? ''), url) };
      case 'GET /2010-04-01/Accounts/{Sid}.json':
        return { status: 200, body: this.#account() };
      case 'GET /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json':
        return { status: 200, body: this.#numbers(url) };
      case 'POST /2010-04-01/Accounts/{AccountSid}/Messages.json':
        return { status: 201, body: await this.#create(form) };
      case 'GET /2010-04-01/Accounts/{AccountSid}/Messages.json':
        return { status: 200, body: this.#list(url) };
      case 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json': {
        const message = this.messages.get(match[2] ?? '');
        if (!message) throw new FakeTwilioError(404, 20404);
        return { status: 200, body: publicOf(message) };
      }
      case 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media.json': {
        const message = this.messages.get(match[2] ?? '');
        if (!message) throw new FakeTwilioError(404, 20404);
        return { status: 200, body: this.#mediaList(message) };
      }
      case 'GET /2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media/{Sid}': {
        if (!this.#media.has(match[2] ?? '')) throw new FakeTwilioError(404, 20404);
        return { status: 307, redirect: `${this.#baseUrl}/_cdn/${match[2]}` };
      }
    }
  }

  /** The CDN Twilio's media URLs redirect to: no auth, the bytes with their type. */
  #cdn(url: URL, response: ServerResponse): void {
    const file = this.#media.get(url.pathname.slice('/_cdn/'.length));
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.contentType }).end(Buffer.from(file.data));
  }

  async #create(form: [string, string][]): Promise<unknown> {
    const value = (name: string) => form.find(([key]) => key === name)?.[1];
    const to = value('To');
    const from = value('From');
    const serviceSid = value('MessagingServiceSid');
    const body = value('Body') ?? '';
    const mediaUrls = form.filter(([key]) => key === 'MediaUrl').map(([, url]) => url);
    if (to === undefined) throw new FakeTwilioError(400, 21604);
    if (from === undefined && serviceSid === undefined) throw new FakeTwilioError(400, 21603);
    if (!E164.test(to) || this.recipients.get(to)?.lineType === 'invalid') {
      throw new FakeTwilioError(400, 21211);
    }
    let sender = from;
    if (serviceSid !== undefined) {
      const pool = this.services.get(serviceSid);
      if (!pool || pool.length === 0) throw new FakeTwilioError(400, 21606);
      sender = pool[0];
    } else if (from === undefined || !this.numbers.has(from)) {
      throw new FakeTwilioError(400, 21606);
    }
    if (sender === undefined) throw new FakeTwilioError(400, 21606);
    if (body === '' && mediaUrls.length === 0 && value('ContentSid') === undefined) {
      throw new FakeTwilioError(400, 21602);
    }
    if (body.length > 1600) throw new FakeTwilioError(400, 21617);
    if (mediaUrls.length > 10) throw new FakeTwilioError(400, 21623);
    if (this.optOuts.has(`${sender}|${to}`)) throw new FakeTwilioError(400, 21610);
    const errors = this.faults.serverErrors;
    if (errors && errors.count > 0) {
      errors.count -= 1;
      throw new FakeTwilioError(errors.status ?? 500, 20500);
    }
    const statusCallback = value('StatusCallback');
    const message = this.#store(twilioSid(mediaUrls.length > 0 ? 'MM' : 'SM'), {
      from: sender,
      to,
      body,
      direction: 'outbound-api',
      status: serviceSid === undefined ? 'queued' : 'accepted',
      mediaUrls,
      numMedia: mediaUrls.length,
      serviceSid: serviceSid ?? null,
      ...(statusCallback === undefined ? {} : { statusCallback }),
    });
    if (this.fetchMedia && mediaUrls.length > 0) {
      this.#track(
        this.#fetchAll(mediaUrls).then((ok) => {
          if (ok) this.#runLifecycle(message);
          else this.#runLifecycle(message, { outcome: 'failed', errorCode: 11200 });
        }),
      );
    } else {
      this.#runLifecycle(message);
    }
    const slow = this.faults.slowCreates;
    if (slow && (slow.skip ?? 0) > 0) {
      slow.skip = (slow.skip ?? 0) - 1;
    } else if (slow && slow.count > 0) {
      slow.count -= 1;
      await new Promise<void>((resolve) => this.#later(() => resolve(), slow.delayMs));
    }
    const createdThenError = this.faults.createdThenError;
    if (createdThenError && createdThenError.count > 0) {
      createdThenError.count -= 1;
      throw new FakeTwilioError(500, 20500);
    }
    return publicOf(message);
  }

  #store(
    sid: string,
    input: {
      from: string;
      to: string;
      body: string;
      direction: FakeTwilioMessage['direction'];
      status: string;
      mediaUrls: string[];
      numMedia: number;
      serviceSid: string | null;
      statusCallback?: string;
    },
  ): FakeTwilioMessage {
    const now = Date.now();
    const uri = `${this.#accountPath()}/Messages/${sid}.json`;
    const message: FakeTwilioMessage = {
      account_sid: this.accountSid,
      api_version: '2010-04-01',
      body: input.body,
      date_created: rfc2822(now),
      date_sent: input.direction === 'inbound' ? rfc2822(now) : null,
      date_updated: rfc2822(now),
      direction: input.direction,
      error_code: null,
      error_message: null,
      from: input.from,
      messaging_service_sid: input.serviceSid,
      num_media: String(input.numMedia),
      num_segments: String(segmentsOf(input.body)),
      price: null,
      price_unit: 'USD',
      sid,
      status: input.status,
      subresource_uris: {
        media: `${this.#accountPath()}/Messages/${sid}/Media.json`,
        feedback: `${this.#accountPath()}/Messages/${sid}/Feedback.json`,
      },
      to: input.to,
      uri,
      extra: {
        mediaUrls: input.mediaUrls,
        mediaSids: [],
        createdAt: now,
        ...(input.statusCallback === undefined ? {} : { statusCallback: input.statusCallback }),
      },
    };
    this.messages.set(sid, message);
    return message;
  }

  /** Fetches media URLs as Twilio does before sending; false when one cannot be had. */
  async #fetchAll(urls: readonly string[]): Promise<boolean> {
    for (const url of urls) {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        if (!response.ok) return false;
        this.fetchedMedia.set(url, {
          contentType: response.headers.get('content-type') ?? 'application/octet-stream',
          data: new Uint8Array(await response.arrayBuffer()),
        });
      } catch {
        return false;
      }
    }
    return true;
  }

  /** sending → sent → delivered (or the recipient's failure), a callback for each. */
  #runLifecycle(message: FakeTwilioMessage, override?: FakeTwilioRecipient): void {
    const recipient = override ?? this.recipients.get(message.to) ?? {};
    const final = recipient.outcome ?? 'delivered';
    const steps: { status: string; errorCode?: number }[] = [
      ...(message.status === 'accepted' ? [{ status: 'queued' }] : []),
      { status: 'sending' },
      ...(final === 'failed' ? [] : [{ status: 'sent' }]),
      final === 'delivered'
        ? { status: 'delivered' }
        : { status: final, errorCode: recipient.errorCode ?? 30008 },
    ];
    const callbacks: { status: string; errorCode?: number }[] = [];
    let at = 0;
    for (const step of steps) {
      at += this.stepMs;
      this.#later(() => {
        message.status = step.status;
        message.date_updated = rfc2822(Date.now());
        if (step.status === 'sent' || step.status === 'sending')
          message.date_sent ??= rfc2822(Date.now());
        if (step.errorCode !== undefined) {
          message.error_code = step.errorCode;
          message.error_message = `Error ${step.errorCode}`;
        }
        if (step.status !== 'queued') callbacks.push(step);
        const last = step === steps.at(-1);
        if (last) this.#postCallbacks(message, callbacks);
        else if (!this.faults.outOfOrder) this.#postCallbacks(message, callbacks.splice(0));
      }, at);
    }
  }

  #postCallbacks(
    message: FakeTwilioMessage,
    steps: { status: string; errorCode?: number }[],
  ): void {
    const url = message.extra.statusCallback;
    if (url === undefined || steps.length === 0) return;
    const ordered = this.faults.outOfOrder ? [...steps].reverse() : steps;
    // A message's callbacks go one after the other, each once the previous one was answered: on a
    // busy host a slow answer to `sent` would otherwise let `delivered` arrive first, which only
    // the `outOfOrder` fault is meant to play.
    const previous = this.#callbackChains.get(message.sid) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        for (const step of ordered) {
          const params = this.#callbackParams(message, step.status, step.errorCode);
          await this.#post('status', url, params);
          if (this.faults.duplicateCallbacks) await this.#post('status', url, params);
        }
      });
    this.#callbackChains.set(message.sid, run);
    void run.finally(() => {
      if (this.#callbackChains.get(message.sid) === run) this.#callbackChains.delete(message.sid);
    });
    this.#track(run);
  }

  #callbackParams(
    message: FakeTwilioMessage,
    status: string,
    errorCode?: number,
  ): [string, string][] {
    return [
      ['SmsSid', message.sid],
      ['SmsStatus', status],
      ['MessageStatus', status],
      ['To', message.to],
      ['MessageSid', message.sid],
      ['AccountSid', this.accountSid],
      ['From', message.from],
      ['ApiVersion', '2010-04-01'],
      ...(message.messaging_service_sid === null
        ? []
        : [['MessagingServiceSid', message.messaging_service_sid] as [string, string]]),
      ...(errorCode === undefined ? [] : [['ErrorCode', String(errorCode)] as [string, string]]),
      ...(status === 'delivered' || status === 'undelivered'
        ? [['RawDlrDoneDate', rawDlrDate(Date.now())] as [string, string]]
        : []),
    ];
  }

  /**
   * Posts a signed form to `url`; answers the receiver's (last) status and body (0 when
   * unreachable). The signature covers the URL as configured, connection-override fragment
   * included; the request goes to the URL without it (a fragment is never sent). A failure the
   * fragment's `rp` names is tried again, `rc` times (default: once, on connect failures); every
   * try carries the same `I-Twilio-Idempotency-Token`.
   */
  async #post(
    kind: FakeTwilioCallbackKind,
    url: string,
    params: [string, string][],
  ): Promise<{ status: number; body: string }> {
    const signature = signTwilioCall(this.authToken, url, params);
    const target = url.split('#')[0] ?? url;
    const { retries, policy } = connectionOverridesOf(url);
    const token = twilioSid('');
    let status = 0;
    let body = '';
    for (let attempt = 0; attempt <= retries; attempt += 1) {
      let failure: 'ct' | 'rt' | '4xx' | '5xx' | undefined;
      status = 0;
      body = '';
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-twilio-signature': signature,
            'i-twilio-idempotency-token': token,
            'user-agent': 'TwilioProxy/1.1',
          },
          body: new URLSearchParams(params).toString(),
          signal: AbortSignal.timeout(15_000),
        });
        status = response.status;
        body = await response.text();
        if (status >= 500) failure = '5xx';
        else if (status >= 400) failure = '4xx';
      } catch (error) {
        // Twilio logs an 11200 in its debugger.
        failure = error instanceof Error && error.name === 'TimeoutError' ? 'rt' : 'ct';
      }
      this.callbacks.push({ kind, url, params, status });
      if (failure === undefined || !(policy.has(failure) || policy.has('all'))) break;
    }
    return { status, body };
  }

  #list(url: URL): unknown {
    const query = url.searchParams;
    const pageSize = Math.min(Math.max(Number(query.get('PageSize') ?? '50') || 50, 1), 1000);
    const page = Math.max(Number(query.get('Page') ?? '0') || 0, 0);
    // Twilio filters by GMT date: a full date-time (twilio-node sends ISO 8601) counts its day.
    const day = (value: string | null) => {
      if (value === null) return undefined;
      const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
      return Number.isNaN(at) ? undefined : at - (at % 86_400_000);
    };
    const on = day(query.get('DateSent'));
    const before = day(query.get('DateSent<'));
    const after = day(query.get('DateSent>'));
    const DAY = 86_400_000;
    const matches = [...this.messages.values()]
      .filter((message) => {
        if (query.has('To') && message.to !== query.get('To')) return false;
        if (query.has('From') && message.from !== query.get('From')) return false;
        const sent = message.date_sent === null ? undefined : Date.parse(message.date_sent);
        // Twilio filters on date_sent: a message not sent yet matches no date filter.
        if ((on ?? before ?? after) !== undefined && sent === undefined) return false;
        if (on !== undefined && sent !== undefined && (sent < on || sent >= on + DAY)) return false;
        if (before !== undefined && sent !== undefined && sent >= before + DAY) return false;
        if (after !== undefined && sent !== undefined && sent < after) return false;
        return true;
      })
      // Newest first; messages created in the same millisecond keep their creation order
      // reversed (the sort is stable), as Twilio orders by creation.
      .reverse()
      .sort((a, b) => b.extra.createdAt - a.extra.createdAt);
    const slice = matches.slice(page * pageSize, (page + 1) * pageSize);
    const base = `${this.#accountPath()}/Messages.json`;
    const pageUri = (n: number) => {
      const params = new URLSearchParams(query);
      params.set('PageSize', String(pageSize));
      params.set('Page', String(n));
      return `${base}?${params}`;
    };
    return {
      end: page * pageSize + Math.max(slice.length - 1, 0),
      first_page_uri: pageUri(0),
      messages: slice.map(publicOf),
      next_page_uri: (page + 1) * pageSize < matches.length ? pageUri(page + 1) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? pageUri(page - 1) : null,
      start: page * pageSize,
      uri: pageUri(page),
    };
  }

  /** The IncomingPhoneNumbers list: the account's numbers (`PhoneNumber` filters), in one page. */
  #numbers(url: URL): unknown {
    const query = url.searchParams;
    const pageSize = Math.min(Math.max(Number(query.get('PageSize') ?? '50') || 50, 1), 1000);
    const wanted = query.get('PhoneNumber');
    const base = `${this.#accountPath()}/IncomingPhoneNumbers.json`;
    const created = rfc2822(Date.now() - 86_400_000);
    const numbers = [...this.numbers.entries()]
      .filter(([phoneNumber]) => wanted === null || phoneNumber === wanted)
      .slice(0, pageSize)
      .map(([phoneNumber, number]) => {
        const sid = `PN${createHash('md5').update(phoneNumber).digest('hex')}`;
        return {
          account_sid: this.accountSid,
          address_sid: null,
          address_requirements: 'none',
          api_version: '2010-04-01',
          beta: false,
          capabilities: { fax: false, mms: true, sms: true, voice: true },
          date_created: created,
          date_updated: created,
          friendly_name: phoneNumber,
          identity_sid: null,
          phone_number: phoneNumber,
          origin: 'twilio',
          sid,
          sms_application_sid: null,
          sms_fallback_method: 'POST',
          sms_fallback_url: '',
          sms_method: 'POST',
          sms_url: number.smsUrl ?? '',
          status_callback: '',
          status_callback_method: 'POST',
          trunk_sid: null,
          uri: `${this.#accountPath()}/IncomingPhoneNumbers/${sid}.json`,
          voice_receive_mode: 'voice',
          voice_application_sid: null,
          voice_caller_id_lookup: false,
          voice_fallback_method: 'POST',
          voice_fallback_url: null,
          voice_method: 'POST',
          voice_url: null,
          emergency_status: 'Inactive',
          emergency_address_sid: null,
          emergency_address_status: 'unregistered',
          bundle_sid: null,
          status: 'in-use',
          type: 'local',
        };
      });
    const params = new URLSearchParams(query);
    params.set('PageSize', String(pageSize));
    params.set('Page', '0');
    return {
      end: Math.max(numbers.length - 1, 0),
      first_page_uri: `${base}?${params}`,
      incoming_phone_numbers: numbers,
      next_page_uri: null,
      page: 0,
      page_size: pageSize,
      previous_page_uri: null,
      start: 0,
      uri: `${base}?${params}`,
    };
  }

  /** The Media list of a message: each file's SID, type and URI (without `.json`: the bytes). */
  #mediaList(message: FakeTwilioMessage): unknown {
    const base = `${this.#accountPath()}/Messages/${message.sid}/Media.json`;
    const list = message.extra.mediaSids.map((sid) => ({
      account_sid: this.accountSid,
      content_type: this.#media.get(sid)?.contentType ?? 'application/octet-stream',
      date_created: message.date_created,
      date_updated: message.date_updated,
      parent_sid: message.sid,
      sid,
      uri: `${this.#accountPath()}/Messages/${message.sid}/Media/${sid}.json`,
    }));
    return {
      end: Math.max(list.length - 1, 0),
      first_page_uri: `${base}?PageSize=50&Page=0`,
      media_list: list,
      next_page_uri: null,
      page: 0,
      page_size: 50,
      previous_page_uri: null,
      start: 0,
      uri: `${base}?PageSize=50&Page=0`,
    };
  }

  #account(): unknown {
    const created = rfc2822(Date.now() - 86_400_000);
    return {
      auth_token: this.authToken,
      date_created: created,
      date_updated: created,
      friendly_name: 'Fake Twilio account',
      owner_account_sid: this.accountSid,
      sid: this.accountSid,
      status: 'active',
      subresource_uris: { messages: `${this.#accountPath()}/Messages.json` },
      type: 'Full',
      uri: `${this.#accountPath()}.json`,
    };
  }

  #lookup(phoneNumber: string, url: URL): unknown {
    this.lookups += 1;
    const fields = (url.searchParams.get('Fields') ?? '').split(',');
    const recipient = this.recipients.get(phoneNumber);
    const valid = E164.test(phoneNumber) && recipient?.lineType !== 'invalid';
    const canadian = isCanadianNumber(phoneNumber);
    // Without approval for Canadian data, Twilio answers the package with its error code and
    // nothing else, still 200 (the whole Lookup did not fail).
    const withheld = canadian && !this.canadianLookupApproved;
    return {
      calling_country_code: valid ? '1' : null,
      country_code: valid ? (canadian ? 'CA' : 'US') : null,
      phone_number: phoneNumber,
      national_format: valid ? phoneNumber.slice(2) : null,
      valid,
      validation_errors: valid ? null : ['INVALID_BUT_POSSIBLE'],
      caller_name: null,
      sim_swap: null,
      call_forwarding: null,
      line_type_intelligence:
        valid && fields.includes('line_type_intelligence')
          ? withheld
            ? {
                mobile_country_code: null,
                mobile_network_code: null,
                carrier_name: null,
                type: null,
                error_code: 60601,
              }
            : {
                mobile_country_code: '310',
                mobile_network_code: '260',
                carrier_name: 'Fake Wireless',
                type: recipient?.lineType ?? 'mobile',
                error_code: null,
              }
          : null,
      line_status: null,
      identity_match: null,
      reassigned_number: null,
      sms_pumping_risk: null,
      phone_number_quality_score: null,
      pre_fill: null,
      url: `${this.#baseUrl}/v2/PhoneNumbers/${encodeURIComponent(phoneNumber)}`,
    };
  }

  /** The manual-trial control API under `/_fake/` (see docs/providers/twilio.md). */
  async #control(method: string, url: URL, raw: string, response: ServerResponse): Promise<void> {
    const input = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    if (method === 'POST' && url.pathname === '/_fake/inbound') {
      const answer = await this.inbound({
        from: String(input.from),
        to: String(input.to),
        ...(typeof input.body === 'string' ? { body: input.body } : {}),
      });
      send(response, 200, { sid: answer.message.sid, status: answer.status, body: answer.body });
      return;
    }
    if (method === 'PUT' && url.pathname.startsWith('/_fake/numbers/')) {
      const number = decodeURIComponent(url.pathname.slice('/_fake/numbers/'.length));
      this.addNumber(number, typeof input.smsUrl === 'string' ? input.smsUrl : undefined);
      send(response, 200, { number, smsUrl: input.smsUrl ?? null });
      return;
    }
    if (method === 'PUT' && url.pathname.startsWith('/_fake/recipients/')) {
      const number = decodeURIComponent(url.pathname.slice('/_fake/recipients/'.length));
      this.recipients.set(number, input as FakeTwilioRecipient);
      send(response, 200, { number, ...input });
      return;
    }
    if (method === 'PUT' && url.pathname === '/_fake/faults') {
      this.faults = input as FakeTwilioFaults;
      send(response, 200, this.faults);
      return;
    }
    if (method === 'GET' && url.pathname === '/_fake/messages') {
      send(response, 200, [...this.messages.values()].map(publicOf));
      return;
    }
    send(response, 404, { message: 'unknown control route' });
  }

  #accountPath(): string {
    return `/2010-04-01/Accounts/${this.accountSid}`;
  }

  #later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }

  #track(promise: Promise<unknown>): void {
    this.#pending.add(promise);
    void promise.finally(() => this.#pending.delete(promise));
  }
}

/** A message as the API answers it (without the fake's bookkeeping). */
function publicOf(message: FakeTwilioMessage): Omit<FakeTwilioMessage, 'extra'> {
  const { extra: _extra, ...rest } = message;
  return rest;
}

/** `RawDlrDoneDate`: the carrier's `YYMMDDhhmm`. */
function rawDlrDate(at: number): string {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === undefined) {
    response.writeHead(status, headers).end();
    return;
  }
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body));
}
