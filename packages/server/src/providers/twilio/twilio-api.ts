import { request } from 'undici';

/** How the adapter authenticates to Twilio: the account's auth token, or an API key. */
interface TwilioCredentials {
  /** The account SID (`AC…`): every resource lives under it. */
  accountSid: string;
  /** The Basic-auth user: the account SID, or an API key SID (`SK…`). */
  username: string;
  /** The Basic-auth password: the auth token, or the API key secret. */
  password: string;
}

/** Where the adapter finds Twilio, and how long it waits. */
export interface TwilioApiOptions {
  /** The credentials. */
  credentials: TwilioCredentials;
  /** Base URL of the Messaging API, `https://api.twilio.com` in production. */
  apiBaseUrl: string;
  /** Base URL of the Lookup API, `https://lookups.twilio.com` in production. */
  lookupBaseUrl: string;
  /** Deadline of one call, in milliseconds. */
  timeoutMs: number;
}

/** A Message resource as Twilio answers it (the fields the adapter reads). */
export interface TwilioMessage {
  sid: string;
  status: string;
  to: string;
  from: string | null;
  body: string | null;
  num_segments: string | null;
  num_media: string | null;
  error_code: number | null;
  error_message: string | null;
  date_created: string | null;
  /** When Twilio sent (or received) it, RFC 2822; null while not sent yet. */
  date_sent: string | null;
  /** `inbound` for a message received, `outbound-api` (and others) for one sent. */
  direction: string;
  messaging_service_sid: string | null;
}

/** A page of the Message list. */
interface TwilioMessagePage {
  messages: TwilioMessage[];
  next_page_uri: string | null;
}

/** An IncomingPhoneNumber (the fields the health check and the inbound catch-up read). */
export interface TwilioIncomingNumber {
  phone_number: string;
  /** The URL Twilio posts the number's inbound messages to, as configured (fragment included). */
  sms_url: string | null;
}

/** A Media resource of a message. */
export interface TwilioMedia {
  sid: string;
  content_type: string;
  /** `/2010-04-01/Accounts/{AC}/Messages/{MM}/Media/{ME}.json`; without `.json`, the file. */
  uri: string;
}

/** A Lookup v2 phone number with line type intelligence. */
export interface TwilioLookup {
  phone_number: string;
  valid: boolean;
  line_type_intelligence: { type: string | null; error_code: number | null } | null;
}

/**
 * A call Twilio answered with an error, or could not be made. `status` 0 means no answer at all
 * (network failure, timeout): whether the call took effect upstream is then unknown.
 */
export class TwilioApiError extends Error {
  override readonly name = 'TwilioApiError';

  /** An error of one call. */
  constructor(
    message: string,
    /** The HTTP status, or 0 when Twilio did not answer. */
    readonly status: number,
    /** Twilio's error code (`21211`, `21610`, …), when it gave one. */
    readonly code: number | undefined,
    /** `Retry-After` in seconds, on a 429. */
    readonly retryAfterSeconds: number | undefined,
    /** True when the call timed out (it may still have taken effect). */
    readonly timedOut = false,
  ) {
    super(message);
  }

  /** True when Twilio did not answer, or answered 5xx: the call may have taken effect. */
  get uncertain(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

type Form = readonly (readonly [string, string])[];

/**
 * A small client of the Twilio REST APIs the adapter uses: HTTP Basic auth, form-encoded bodies,
 * Twilio's error JSON `{code, message, more_info, status}` turned into {@link TwilioApiError}.
 */
export class TwilioApi {
  readonly #options: TwilioApiOptions;
  readonly #authorization: string;

  /** A client over the given credentials and base URLs. */
  constructor(options: TwilioApiOptions) {
    this.#options = options;
    const { username, password } = options.credentials;
    this.#authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }

  /** The `Authorization` header value, for fetching media Twilio hosts. */
  get authorization(): string {
    return this.#authorization;
  }

  /** `POST /2010-04-01/Accounts/{sid}/Messages.json`: creates (sends) a message. */
  createMessage(form: Form): Promise<TwilioMessage> {
    return this.#call<TwilioMessage>('POST', this.#accountPath('/Messages.json'), form);
  }

  /** `GET …/Messages/{sid}.json`, or null when Twilio does not know the message. */
  async fetchMessage(sid: string): Promise<TwilioMessage | null> {
    try {
      return await this.#call<TwilioMessage>(
        'GET',
        this.#accountPath(`/Messages/${encodeURIComponent(sid)}.json`),
      );
    } catch (error) {
      if (error instanceof TwilioApiError && error.status === 404) return null;
      throw error;
    }
  }

  /** `GET …/Messages.json?To=&From=`: the newest messages between two addresses. */
  async listMessages(filter: {
    to: string;
    from?: string;
    pageSize: number;
  }): Promise<TwilioMessage[]> {
    const query = new URLSearchParams({ To: filter.to, PageSize: String(filter.pageSize) });
    if (filter.from !== undefined) query.set('From', filter.from);
    const page = await this.#call<TwilioMessagePage>(
      'GET',
      `${this.#accountPath('/Messages.json')}?${query}`,
    );
    return page.messages;
  }

  /**
   * `GET …/IncomingPhoneNumbers.json`: the account's numbers. Unlike the Account resource, a
   * Standard API key may read it, so the health check probes it.
   */
  async listIncomingNumbers(): Promise<TwilioIncomingNumber[]> {
    const page = await this.#call<{ incoming_phone_numbers: TwilioIncomingNumber[] }>(
      'GET',
      `${this.#accountPath('/IncomingPhoneNumbers.json')}?PageSize=1000`,
    );
    return page.incoming_phone_numbers;
  }

  /**
   * `GET …/Messages.json?To=&DateSent>=`: the messages to `to` sent on or after the GMT day of
   * `since` (Twilio filters by day), newest first, following `next_page_uri` for at most `pages`
   * pages of `pageSize`.
   */
  async listMessagesSince(filter: {
    to: string;
    since: number;
    pageSize: number;
    pages: number;
  }): Promise<TwilioMessage[]> {
    const query = new URLSearchParams({
      To: filter.to,
      'DateSent>': new Date(filter.since).toISOString().slice(0, 10),
      PageSize: String(filter.pageSize),
    });
    let path: string | null = `${this.#accountPath('/Messages.json')}?${query}`;
    const messages: TwilioMessage[] = [];
    for (let page = 0; path !== null && page < filter.pages; page += 1) {
      const answer: TwilioMessagePage = await this.#call<TwilioMessagePage>('GET', path);
      messages.push(...answer.messages);
      path = answer.next_page_uri;
    }
    return messages;
  }

  /** `GET …/Messages/{sid}/Media.json`: the media of a message. */
  async listMedia(messageSid: string): Promise<TwilioMedia[]> {
    const page = await this.#call<{ media_list: TwilioMedia[] }>(
      'GET',
      this.#accountPath(`/Messages/${encodeURIComponent(messageSid)}/Media.json`),
    );
    return page.media_list;
  }

  /** The absolute URL of a path Twilio answered (a media `uri`), on the API's base URL. */
  urlOf(path: string): string {
    return new URL(path, this.#options.apiBaseUrl).href;
  }

  /** `GET /v2/PhoneNumbers/{number}?Fields=line_type_intelligence` (Lookup v2, a paid call). */
  lookup(phoneNumber: string): Promise<TwilioLookup> {
    const url = new URL(
      `/v2/PhoneNumbers/${encodeURIComponent(phoneNumber)}?Fields=line_type_intelligence`,
      this.#options.lookupBaseUrl,
    );
    return this.#callUrl<TwilioLookup>('GET', url);
  }

  #accountPath(rest: string): string {
    return `/2010-04-01/Accounts/${encodeURIComponent(this.#options.credentials.accountSid)}${rest}`;
  }

  #call<T>(method: 'GET' | 'POST', path: string, form?: Form): Promise<T> {
    return this.#callUrl<T>(method, new URL(path, this.#options.apiBaseUrl), form);
  }

  async #callUrl<T>(method: 'GET' | 'POST', url: URL, form?: Form): Promise<T> {
    const signal = AbortSignal.timeout(this.#options.timeoutMs);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method,
        headers: {
          authorization: this.#authorization,
          accept: 'application/json',
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form
          ? { body: new URLSearchParams(form.map(([k, v]): [string, string] => [k, v])).toString() }
          : {}),
        signal,
      });
    } catch (error) {
      const timedOut = signal.aborted;
      throw new TwilioApiError(
        timedOut
          ? `Twilio did not answer within ${this.#options.timeoutMs} ms`
          : `Twilio could not be reached: ${error instanceof Error ? error.message : String(error)}`,
        0,
        undefined,
        undefined,
        timedOut,
      );
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch {
      throw new TwilioApiError('Twilio did not finish its answer', 0, undefined, undefined, true);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return JSON.parse(text) as T;
    throw errorOf(response.statusCode, text, response.headers['retry-after']);
  }
}

/** The error of a non-2xx answer, from Twilio's `{code, message, more_info, status}`. */
function errorOf(
  status: number,
  text: string,
  retryAfter: string | string[] | undefined,
): TwilioApiError {
  let code: number | undefined;
  let message = `Twilio answered HTTP ${status}`;
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'number') code = body.code;
    if (typeof body.message === 'string' && body.message !== '') message = body.message;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  return new TwilioApiError(
    message,
    status,
    code,
    Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined,
  );
}
