import autocannon from 'autocannon';
import { type LatencySummary, summarizeLatencies } from '../stats/summary';

/** One request of a load run. */
export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A closed-loop load run: `connections` clients, each sending its next request on an answer. */
export interface HttpLoadOptions {
  /** Base URL of the target. */
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  durationSec: number;
  /** Builds each request (spreads keys, makes idempotency keys unique, picks ids). */
  nextRequest: () => LoadRequest;
}

/** What a load run measured. */
export interface HttpLoadResult {
  /** 2xx answers per second over the run. */
  okPerSec: number;
  /** 2xx answers. */
  ok: number;
  /** Answers with another status, by status code. */
  otherStatuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** Latency of the 2xx answers, milliseconds (microsecond resolution). */
  latency: LatencySummary;
  /** Actual duration, seconds. */
  durationSec: number;
}

/**
 * Drives one target with autocannon from this process and measures it. Latency comes from each
 * response's own timing (autocannon's histogram rounds to whole milliseconds).
 */
export function runHttpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const latencies: number[] = [];
  const otherStatuses: Record<string, number> = {};
  return new Promise((resolveResult, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method,
        connections: options.connections,
        duration: options.durationSec,
        timeout: 10,
        requests: [
          {
            setupRequest: (request) => {
              const next = options.nextRequest();
              return {
                ...request,
                method: options.method,
                path: next.path,
                headers: next.headers,
                ...(next.body === undefined ? {} : { body: next.body }),
              };
            },
          },
        ],
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const ok = result['2xx'];
        resolveResult({
          okPerSec: ok / result.duration,
          ok,
          otherStatuses,
          errors: result.errors + result.timeouts,
          latency: summarizeLatencies(latencies),
          durationSec: result.duration,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else otherStatuses[statusCode] = (otherStatuses[statusCode] ?? 0) + 1;
    });
  });
}
