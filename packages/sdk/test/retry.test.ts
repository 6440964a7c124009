import { afterEach, describe, expect, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRetryable,
  parseRetryAfterSeconds,
  retryDelay,
} from '../src/core/retry';
import {
  APIConnectionError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
  Switchboard,
} from '../src/index';
import {
  dropConnection,
  failure,
  type LoopbackHandler,
  type LoopbackServer,
  ok,
  sendJson,
  startLoopbackServer,
} from './support/loopback-server';

const message = {
  id: 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e',
  status: 'queued',
  to: '+14155550100',
  from: '+14155550199',
  createdAt: '2026-11-21T10:00:00.000Z',
};

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(handler: LoopbackHandler, options: { maxRetries?: number } = {}) {
  server = await startLoopbackServer(handler);
  const waits: number[] = [];
  const client = new Switchboard({
    apiKey: 'sk_test',
    baseUrl: server.baseUrl,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, waits, requests: server.requests };
}

describe('retries against a real HTTP server', () => {
  it('waits the Retry-After of a 429, then succeeds', async () => {
    const { client, waits, requests } = await clientFor((_req, res, index) => {
      if (index === 0) {
        sendJson(res, 429, failure('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': '3' });
      } else {
        sendJson(res, 200, ok(message, 'req_second'));
      }
    });
    const { data, requestId } = await client.messages.get(message.id).withResponse();
    expect(data).toEqual(message);
    expect(requestId).toBe('req_second');
    expect(waits).toEqual([3000]);
    expect(requests).toHaveLength(2);
  });

  it('gives up on a 429 whose Retry-After is longer than a minute', async () => {
    const { client, waits, requests } = await clientFor((_req, res) => {
      sendJson(res, 429, failure('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': '600' });
    });
    const error = await client.messages.get(message.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(600);
    expect(waits).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('retries a 5xx with growing backoff and stops after maxRetries', async () => {
    const { client, waits, requests } = await clientFor((_req, res) => {
      sendJson(res, 503, failure('INTERNAL_ERROR', 'down'));
    });
    const error = await client.messages.get(message.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    const [first = 0, second = 0] = waits;
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(750);
    expect(second).toBeLessThanOrEqual(1000);
  });

  it('does not retry a 4xx', async () => {
    const { client, requests } = await clientFor((_req, res) => {
      sendJson(res, 400, failure('VALIDATION_ERROR', 'limit: must be at most 100'));
    });
    await expect(client.messages.get(message.id)).rejects.toBeInstanceOf(BadRequestError);
    expect(requests).toHaveLength(1);
  });

  it('honours maxRetries per client and per request', async () => {
    const handler: LoopbackHandler = (_req, res) =>
      sendJson(res, 500, failure('INTERNAL_ERROR', 'x'));
    const { client, requests } = await clientFor(handler, { maxRetries: 0 });
    await expect(client.messages.get(message.id)).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(1);
    await expect(client.messages.get(message.id, { maxRetries: 4 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(requests).toHaveLength(6);
  });

  it('retries a send after a dropped connection with the same generated idempotencyKey', async () => {
    const { client, requests } = await clientFor((_req, res, index) => {
      if (index === 0) dropConnection(res);
      else sendJson(res, 202, ok(message));
    });
    const sent = await client.messages.send({ to: '+14155550100', content: { text: 'Hi' } });
    expect(sent).toEqual(message);
    expect(requests).toHaveLength(2);
    const keys = requests.map((request) => JSON.parse(request.body).idempotencyKey as string);
    expect(keys[0]).toMatch(/^sdk_[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("keeps the caller's idempotencyKey, from the body or the options", async () => {
    const { client, requests } = await clientFor((_req, res) => sendJson(res, 202, ok(message)));
    await client.messages.send({
      to: '+14155550100',
      content: { text: 'a' },
      idempotencyKey: 'k1',
    });
    await client.messages.send(
      { to: '+14155550100', content: { text: 'b' } },
      { idempotencyKey: 'k2' },
    );
    const keys = requests.map((request) => JSON.parse(request.body).idempotencyKey as string);
    expect(keys).toEqual(['k1', 'k2']);
  });

  it('does not repeat a non-idempotent POST after a 5xx or a dropped connection', async () => {
    const { client, requests } = await clientFor((_req, res, index) => {
      if (index === 0) sendJson(res, 500, failure('INTERNAL_ERROR', 'x'));
      else dropConnection(res);
    });
    await expect(client.messages.retry(message.id)).rejects.toBeInstanceOf(InternalServerError);
    await expect(client.messages.retry(message.id)).rejects.toBeInstanceOf(APIConnectionError);
    expect(requests).toHaveLength(2);
  });

  it('retries any request after a 429, the rate limiter having refused it before any work', async () => {
    const { client, requests } = await clientFor((_req, res, index) => {
      if (index === 0)
        sendJson(res, 429, failure('RATE_LIMIT_EXCEEDED', 'x'), { 'retry-after': '0' });
      else sendJson(res, 202, ok({ id: message.id, status: 'queued', retryCount: 1 }));
    });
    await expect(client.messages.retry(message.id)).resolves.toMatchObject({ retryCount: 1 });
    expect(requests).toHaveLength(2);
  });
});

describe('retry policy', () => {
  it('classifies failures', () => {
    expect(isRetryable({ kind: 'status', status: 429, retryAfter: null }, false)).toBe(true);
    expect(isRetryable({ kind: 'status', status: 408, retryAfter: null }, true)).toBe(true);
    expect(isRetryable({ kind: 'status', status: 408, retryAfter: null }, false)).toBe(false);
    expect(isRetryable({ kind: 'status', status: 502, retryAfter: null }, true)).toBe(true);
    expect(isRetryable({ kind: 'status', status: 409, retryAfter: null }, true)).toBe(false);
    expect(isRetryable({ kind: 'connection' }, true)).toBe(true);
    expect(isRetryable({ kind: 'connection' }, false)).toBe(false);
  });

  it('doubles the backoff up to the cap and subtracts at most 25 % jitter', () => {
    const policy = { initialDelay: 500, maxDelay: 8_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, policy, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect(backoffDelay(1, policy, () => 0.999_999)).toBe(375);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfterSeconds('12', now)).toBe(12);
    expect(parseRetryAfterSeconds('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfterSeconds('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterSeconds('soon', now)).toBeUndefined();
    expect(parseRetryAfterSeconds(null, now)).toBeUndefined();
  });

  it('prefers Retry-After over backoff, within the cap', () => {
    const failure429 = (value: string | null) =>
      ({ kind: 'status', status: 429, retryAfter: value }) as const;
    expect(retryDelay(1, failure429('2'), DEFAULT_RETRY_POLICY, () => 0)).toBe(2000);
    expect(retryDelay(1, failure429(null), DEFAULT_RETRY_POLICY, () => 0)).toBe(500);
    expect(retryDelay(1, failure429('61'), DEFAULT_RETRY_POLICY, () => 0)).toBeUndefined();
  });
});
