/** How the SDK spaces its retries. All durations are in milliseconds. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  /** The first backoff delay; each later one doubles, up to `maxDelay`. */
  initialDelay: number;
  /** The longest computed backoff delay. */
  maxDelay: number;
  /** The longest `Retry-After` the SDK waits for; a longer one fails the request instead. */
  maxRetryAfter: number;
}

/** The default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 2;

/** The default retry policy: 2 retries, 0.5 s doubling to 8 s, honouring `Retry-After` up to 60 s. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: DEFAULT_MAX_RETRIES,
  initialDelay: 500,
  maxDelay: 8_000,
  // The rate limiter uses one-minute windows, so a well-formed Retry-After never exceeds 60 s.
  maxRetryAfter: 60_000,
};

/** Waits `ms` milliseconds; rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | { kind: 'status'; status: number; retryAfter: string | null }
  | { kind: 'connection' };

/**
 * True when a failed attempt may be tried again. 429 is always safe: the rate limiter rejects
 * before any handler runs. 408, 5xx and connection failures may hide a request the server did
 * handle, so they are retried only when repeating it cannot do the work twice (`idempotent`).
 */
export function isRetryable(failure: AttemptFailure, idempotent: boolean): boolean {
  if (failure.kind === 'connection') return idempotent;
  if (failure.status === 429) return true;
  return (failure.status === 408 || failure.status >= 500) && idempotent;
}

/** Reads `Retry-After` as seconds (delta-seconds or an HTTP date); undefined when absent or bad. */
export function parseRetryAfterSeconds(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

/**
 * The exponential backoff before retry number `retry` (1 for the first retry), with up to 25 %
 * jitter subtracted so that clients failing together do not retry together.
 */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, 'initialDelay' | 'maxDelay'>,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.initialDelay * 2 ** (retry - 1), policy.maxDelay);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * The wait before retry number `retry`: the server's `Retry-After` when it sent one, else the
 * backoff. Undefined when `Retry-After` is longer than the policy allows, so the caller gives up.
 */
export function retryDelay(
  retry: number,
  failure: AttemptFailure,
  policy: RetryPolicy,
  random: () => number = Math.random,
  now: number = Date.now(),
): number | undefined {
  const retryAfter =
    failure.kind === 'status' ? parseRetryAfterSeconds(failure.retryAfter, now) : undefined;
  if (retryAfter === undefined) return backoffDelay(retry, policy, random);
  const ms = Math.ceil(retryAfter * 1000);
  return ms <= policy.maxRetryAfter ? ms : undefined;
}

/** The default {@link Sleep}: a timer that the signal can cut short. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
