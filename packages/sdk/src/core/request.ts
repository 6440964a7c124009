import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  SwitchboardError,
} from './errors';
import {
  type AttemptFailure,
  isRetryable,
  type RetryPolicy,
  retryDelay,
  type Sleep,
} from './retry';

/** Options every SDK method accepts as its last argument. */
export interface RequestOptions {
  /** Aborts the request (and any wait between retries). */
  signal?: AbortSignal | undefined;
  /** Milliseconds one attempt may take before it fails with {@link APIConnectionTimeoutError}. */
  timeout?: number | undefined;
  /** Retries after the first attempt, overriding the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /**
   * `messages.send` only: the key that makes retrying the send safe. When neither this nor the
   * body's `idempotencyKey` is given, the SDK generates one.
   */
  idempotencyKey?: string | undefined;
  /** Sent as `X-Correlation-Id` (`cor_` and 32 hex characters); echoed on related webhooks. */
  correlationId?: string | undefined;
  /** Extra headers for this request; they override the client's `defaultHeaders`. */
  headers?: Record<string, string> | undefined;
}

/** The HTTP methods of the API. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query string value; arrays are sent comma-separated, undefined and null are left out. */
export type QueryValue = string | number | boolean | readonly string[] | null | undefined;

/** One API call, already resolved to a path. */
export interface RequestSpec {
  /** The HTTP method. */
  method: HttpMethod;
  /** The path with its parameters filled in, starting with `/`. */
  path: string;
  /** Query parameters. */
  query?: Readonly<Record<string, QueryValue>> | undefined;
  /** The JSON body. */
  body?: unknown;
  /** Whether repeating the request cannot do the work twice (see `isRetryable`). */
  idempotent: boolean;
  /** False for the routes answered outside the `{success, data, requestId}` envelope. */
  envelope: boolean;
  /** False for the routes that need no API key. */
  auth: boolean;
  /**
   * True for the routes that answer a file: a successful body is returned as its raw bytes (a
   * `Uint8Array`) instead of being decoded; a failure still arrives as the JSON envelope.
   */
  binary?: boolean | undefined;
}

/** A successful response: the envelope's `data` and what came with it. */
export interface APIResponse<T> {
  /** The `data` of the success envelope (the whole body for unenveloped routes). */
  data: T;
  /** The `requestId` the server gave this request. */
  requestId: string | undefined;
  /** The HTTP status. */
  status: number;
  /** The response headers (rate-limit headers among them). */
  headers: Headers;
}

/** The settings a {@link Transport} runs with. */
export interface TransportConfig {
  /** The API key; requests to authenticated routes fail without one. */
  apiKey: string | undefined;
  /** Base URL without a trailing slash. */
  baseUrl: string;
  /** Default per-attempt timeout in milliseconds. */
  timeout: number;
  /** Default retry policy. */
  retryPolicy: RetryPolicy;
  /** The fetch implementation. */
  fetch: typeof fetch;
  /** Headers sent on every request. */
  defaultHeaders: Readonly<Record<string, string>>;
  /** The wait between retries. */
  sleep: Sleep;
  /** The jitter source, in [0, 1). */
  random: () => number;
}

/** How an attempt reads the response body: decoded, as raw bytes, or not at all (streams). */
type BodyReading = 'text' | 'bytes' | 'none';

interface Exchange {
  response: Response;
  body: unknown;
}

/**
 * Sends API requests: auth and correlation headers, JSON in and out, per-attempt timeouts,
 * retries, and failure envelopes turned into typed errors.
 */
export class Transport {
  readonly #config: TransportConfig;
  #lastRequestId: string | undefined;

  constructor(config: TransportConfig) {
    this.#config = config;
  }

  /** The `requestId` of the last response received, success or failure. */
  get lastRequestId(): string | undefined {
    return this.#lastRequestId;
  }

  /** The wait between retries, shared with the event stream's reconnects. */
  get sleep(): Sleep {
    return this.#config.sleep;
  }

  /** The jitter source, shared with the event stream's reconnects. */
  get random(): () => number {
    return this.#config.random;
  }

  /** Sends a request, retrying as the policy allows, and returns the unwrapped response. */
  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<APIResponse<T>> {
    const url = this.buildUrl(spec.path, spec.query);
    const init: RequestInit = {
      method: spec.method,
      headers: this.#headers(spec, options),
      ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
    };
    const maxRetries = options.maxRetries ?? this.#config.retryPolicy.maxRetries;
    const timeout = options.timeout ?? this.#config.timeout;

    for (let retry = 1; ; retry++) {
      let error: SwitchboardError;
      let failure: AttemptFailure;
      try {
        const read = spec.binary === true ? 'bytes' : 'text';
        const exchange = await this.#exchange(url, init, timeout, options.signal, read);
        const { response } = exchange;
        const requestId = readRequestId(exchange);
        this.#lastRequestId = requestId ?? this.#lastRequestId;
        if (response.ok) return unwrap<T>(spec, exchange, requestId);
        error = SwitchboardError.fromResponse({
          status: response.status,
          body: exchange.body,
          headers: response.headers,
        });
        failure = {
          kind: 'status',
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
        };
      } catch (caught) {
        if (!(caught instanceof APIConnectionError)) throw caught;
        error = caught;
        failure = { kind: 'connection' };
      }
      if (retry > maxRetries || !isRetryable(failure, spec.idempotent)) throw error;
      const delay = retryDelay(retry, failure, this.#config.retryPolicy, this.#config.random);
      if (delay === undefined) throw error;
      try {
        await this.#config.sleep(delay, options.signal);
      } catch (reason) {
        throw new APIUserAbortError(undefined, { cause: reason });
      }
    }
  }

  /**
   * Opens a streaming response (one attempt, no retries): the timeout covers only the wait for
   * the headers, and the returned body stays open until it ends or `signal` aborts.
   */
  async open(spec: RequestSpec, options: RequestOptions = {}): Promise<Response> {
    const url = this.buildUrl(spec.path, spec.query);
    const headers = this.#headers(spec, options);
    headers.set('Accept', 'text/event-stream');
    const init: RequestInit = { method: spec.method, headers };
    const timeout = options.timeout ?? this.#config.timeout;
    const exchange = await this.#exchange(url, init, timeout, options.signal, 'none');
    const { response } = exchange;
    if (response.ok) return response;
    const body = await readBody(response).catch(() => undefined);
    const failed = { response, body };
    this.#lastRequestId = readRequestId(failed) ?? this.#lastRequestId;
    throw SwitchboardError.fromResponse({
      status: response.status,
      body,
      headers: response.headers,
    });
  }

  /** The absolute URL of a path and query. */
  buildUrl(path: string, query: RequestSpec['query']): string {
    const url = new URL(this.#config.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    return url.toString();
  }

  #headers(spec: RequestSpec, options: RequestOptions): Headers {
    const headers = new Headers({ Accept: spec.envelope ? 'application/json' : '*/*' });
    if (spec.body !== undefined) headers.set('Content-Type', 'application/json');
    if (spec.auth) {
      if (!this.#config.apiKey) {
        throw new SwitchboardError(
          'No API key: pass `apiKey` to `new Switchboard()` or set the SWITCHBOARD_API_KEY environment variable.',
        );
      }
      headers.set('Authorization', `Bearer ${this.#config.apiKey}`);
    }
    for (const [name, value] of Object.entries(this.#config.defaultHeaders)) {
      headers.set(name, value);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    if (options.correlationId !== undefined) headers.set('X-Correlation-Id', options.correlationId);
    return headers;
  }

  /**
   * One attempt. Unless `read` is `'none'` the timeout also covers reading the body; with
   * `'none'` the body is left to the caller and only the caller's signal can cut it.
   */
  async #exchange(
    url: string,
    init: RequestInit,
    timeout: number,
    signal: AbortSignal | undefined,
    read: BodyReading,
  ): Promise<Exchange> {
    const readToEnd = read !== 'none';
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    try {
      const response = await this.#config.fetch(url, { ...init, signal: controller.signal });
      const body = readToEnd ? await readBody(response, read === 'bytes') : undefined;
      return { response, body };
    } catch (cause) {
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause });
      if (timedOut) {
        throw new APIConnectionTimeoutError(`Request timed out after ${timeout} ms.`, { cause });
      }
      throw new APIConnectionError(`Connection error: ${describeCause(cause)}`, { cause });
    } finally {
      clearTimeout(timer);
      if (readToEnd) signal?.removeEventListener('abort', onAbort);
    }
  }
}

async function readBody(response: Response, binary = false): Promise<unknown> {
  // Only a success is a file: a failure of a binary route is still the JSON error envelope.
  if (binary && response.ok) return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  if (text === '') return undefined;
  if (!(response.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function readRequestId({ response, body }: Exchange): string | undefined {
  if (typeof body === 'object' && body !== null && 'requestId' in body) {
    const { requestId } = body;
    if (typeof requestId === 'string') return requestId;
  }
  return response.headers.get('x-request-id') ?? undefined;
}

function unwrap<T>(
  spec: RequestSpec,
  { response, body }: Exchange,
  requestId: string | undefined,
): APIResponse<T> {
  const base = { requestId, status: response.status, headers: response.headers };
  if (!spec.envelope) return { ...base, data: body as T };
  if (typeof body === 'object' && body !== null && 'success' in body && 'data' in body) {
    // The contract types the envelope's data; the SDK trusts the server rather than re-validating,
    // so that a newer server adding fields never breaks an older SDK.
    return { ...base, data: body.data as T };
  }
  throw new SwitchboardError(
    `Expected a Switchboard success envelope from ${spec.method} ${spec.path}, got something else.`,
    { status: response.status, headers: response.headers, body, requestId },
  );
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}
