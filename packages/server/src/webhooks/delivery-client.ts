import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';

/** How one delivery attempt ended: delivered, worth retrying, or never to be retried. */
export type DeliveryOutcomeKind = 'delivered' | 'retryable' | 'terminal';

/** The record of one delivery attempt, ready for the delivery log. */
export interface DeliveryOutcome {
  kind: DeliveryOutcomeKind;
  /** The receiver's HTTP status; null when no response arrived (timeout, network error). */
  statusCode: number | null;
  /** Milliseconds from sending the request until the response headers arrived or the attempt failed. */
  durationMs: number;
  /** Why the attempt did not deliver; null when delivered. */
  error: string | null;
  /** The response's raw `Retry-After` header, for the retry schedule. */
  retryAfter: string | null;
  /** The start of the response body (at most {@link MAX_RESPONSE_BODY_BYTES}, UTF-8), for the delivery log. */
  responseBody: string | null;
}

/**
 * The outcome of an attempt that got no answer (a refused URL, a network error, a timeout, a
 * sender that stopped): retryable, with no status, response or `Retry-After`.
 */
export function unansweredOutcome(error: string, durationMs = 0): DeliveryOutcome {
  return {
    kind: 'retryable',
    statusCode: null,
    durationMs,
    error,
    retryAfter: null,
    responseBody: null,
  };
}

/** Bytes of a receiver's response body kept for the delivery log; the rest is discarded unread. */
export const MAX_RESPONSE_BODY_BYTES = 4096;

/** Input of {@link deliver}. */
export interface DeliverInput {
  url: string;
  headers: Record<string, string>;
  /** The exact bytes that were signed. */
  body: string | Uint8Array;
  /** Deadline for the receiver to answer, connection included (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** The safe dispatcher (see `createSafeDispatcher`), which enforces the address policy. */
  dispatcher: Dispatcher;
}

/**
 * Classifies a receiver's HTTP status per the spec: 2xx delivered; 408, 429 and 5xx retryable;
 * any other 4xx terminal; 3xx (never followed) and anything else retryable failures.
 */
export function classifyStatus(statusCode: number): DeliveryOutcomeKind {
  if (statusCode >= 200 && statusCode <= 299) return 'delivered';
  if (statusCode === 408 || statusCode === 429) return 'retryable';
  if (statusCode >= 400 && statusCode <= 499) return 'terminal';
  // 3xx: a moved receiver needs time for its owner to update the URL, and exhausted chains are
  // what deactivate the webhook and tell them so; a terminal 3xx would drop events silently.
  return 'retryable';
}

function describeStatus(statusCode: number, location: string | null): string {
  if (statusCode >= 300 && statusCode <= 399) {
    const target = location === null ? '' : ` to ${location.slice(0, 500)}`;
    return `receiver answered HTTP ${statusCode} (redirect${target}); redirects are not followed`;
  }
  return `receiver answered HTTP ${statusCode}`;
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

async function readBodyStart(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      const room = MAX_RESPONSE_BODY_BYTES - kept;
      chunks.push(buffer.subarray(0, room));
      kept += Math.min(room, buffer.length);
      if (kept >= MAX_RESPONSE_BODY_BYTES) break;
    }
  } catch {
    // The deadline or the receiver cut the body short: what arrived is still worth logging.
  } finally {
    // Breaking out of the loop destroys the stream; this also covers an early throw.
    body.destroy();
  }
  // A non-fatal decoder turns a multi-byte character cut at the limit into U+FFFD.
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

function describeError(error: unknown): string {
  const chain: string[] = [];
  let current: unknown = error;
  // undici wraps socket and lookup errors; the innermost cause names the real problem.
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    chain.push(code === undefined ? current.message : `${current.message} (${code})`);
    current = current.cause;
  }
  return chain.length === 0 ? String(error) : chain.join(': ');
}

/**
 * POSTs one signed webhook body and classifies the result exactly per the spec: 2xx delivered;
 * 408, 429, 5xx, timeouts and network errors retryable; other 4xx terminal; 3xx a retryable
 * failure whose redirect is never followed. Never throws: every failure becomes an outcome.
 */
export async function deliver(input: DeliverInput): Promise<DeliveryOutcome> {
  // The deadline aborts through an EventEmitter, which undici takes as a `signal` as it takes an
  // AbortSignal: an AbortController's EventTarget bookkeeping cost ~30 µs of CPU an attempt
  // (bench/results/history.md, "The webhook sender's own cost"). Once the headers are in, the same
  // abort destroys the response body, so one deadline still covers the whole attempt.
  const deadline = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.emit('abort');
  }, input.timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // The dispatcher's own `request` with the origin and path split here: undici's top-level
    // `request(url)` parsed and rebuilt its options again on every call.
    const target = new URL(input.url);
    const response = await input.dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      headers: input.headers,
      body: typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body,
      // One deadline for connect, headers and the bounded body read, instead of undici's
      // separate per-phase timeouts, so every timeout reads the same in the delivery log.
      signal: deadline,
    });
    const durationMs = elapsed();
    const { statusCode } = response;
    const kind = classifyStatus(statusCode);
    const retryAfter = headerValue(response.headers['retry-after']);
    const location = headerValue(response.headers.location);
    // Still under the same deadline: a receiver that dribbles its body cannot hold the slot.
    const responseBody = await readBodyStart(response.body);
    return {
      kind,
      statusCode,
      durationMs,
      error: kind === 'delivered' ? null : describeStatus(statusCode, location),
      retryAfter,
      responseBody,
    };
  } catch (error) {
    return unansweredOutcome(
      timedOut ? `receiver did not answer within ${input.timeoutMs} ms` : describeError(error),
      elapsed(),
    );
  } finally {
    clearTimeout(timer);
  }
}
