import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  Switchboard,
  SwitchboardError,
} from '../src/index';
import {
  type LoopbackHandler,
  type LoopbackServer,
  ok,
  sendJson,
  startLoopbackServer,
} from './support/loopback-server';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(handler: LoopbackHandler) {
  server = await startLoopbackServer(handler);
  return server;
}

const noWait = async () => {};

describe('requests', () => {
  it('sends the API key, JSON body, correlation id and default headers', async () => {
    const { baseUrl, requests } = await start((_req, res) =>
      sendJson(res, 200, ok({ chatId: 'x', typing: true })),
    );
    const client = new Switchboard({
      apiKey: 'sk_live_abc',
      baseUrl: `${baseUrl}/`,
      defaultHeaders: { 'X-App': 'demo' },
    });
    await client.chats.typing(
      'iMessage;+;chat123',
      { status: 'start' },
      { correlationId: 'cor_0123456789abcdef0123456789abcdef', headers: { 'X-Request-Id': 'r-1' } },
    );
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chats/iMessage%3B%2B%3Bchat123/typing');
    expect(request?.headers.authorization).toBe('Bearer sk_live_abc');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-correlation-id']).toBe('cor_0123456789abcdef0123456789abcdef');
    expect(request?.headers['x-request-id']).toBe('r-1');
    expect(request?.headers['x-app']).toBe('demo');
    expect(JSON.parse(request?.body ?? '')).toEqual({ status: 'start' });
  });

  it('sends no body and no Content-Type on a POST without a body', async () => {
    const { baseUrl, requests } = await start((_req, res) =>
      sendJson(res, 200, ok({ chatId: 'c', left: true })),
    );
    const client = new Switchboard({ apiKey: 'k', baseUrl });
    await client.chats.leave('c');
    expect(requests[0]?.headers['content-type']).toBeUndefined();
    expect(requests[0]?.body).toBe('');
  });

  it('serialises the query and leaves out undefined values', async () => {
    const { baseUrl, requests } = await start((_req, res) =>
      sendJson(res, 200, ok({ messages: [], pagination: { hasMore: false, nextCursor: null } })),
    );
    const client = new Switchboard({ apiKey: 'k', baseUrl });
    await client.messages.list({ status: 'failed', limit: 10, to: undefined });
    expect(requests[0]?.url).toBe('/v1/messages?status=failed&limit=10');
  });

  it('reads the API key from SWITCHBOARD_API_KEY', async () => {
    const { baseUrl, requests } = await start((_req, res) => sendJson(res, 200, ok([])));
    process.env.SWITCHBOARD_API_KEY = 'sk_from_env';
    try {
      await new Switchboard({ baseUrl }).numbers.list();
    } finally {
      delete process.env.SWITCHBOARD_API_KEY;
    }
    expect(requests[0]?.headers.authorization).toBe('Bearer sk_from_env');
  });

  it('fails before any request when no API key is configured', async () => {
    const { baseUrl, requests } = await start((_req, res) => sendJson(res, 200, ok([])));
    const error = await new Switchboard({ baseUrl }).numbers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect((error as Error).message).toContain('SWITCHBOARD_API_KEY');
    expect(requests).toHaveLength(0);
  });

  it('calls /health without an API key and returns the unenveloped report', async () => {
    const report = {
      status: 'ok',
      timestamp: '2026-11-21T10:00:00.000Z',
      checks: {
        database: { status: 'ok' },
        redis: { status: 'not_configured' },
        imessage: { status: 'healthy' },
        whatsapp: { status: 'not_enabled', experimental: true },
      },
    };
    const { baseUrl, requests } = await start((_req, res) => sendJson(res, 200, report));
    await expect(new Switchboard({ baseUrl }).health()).resolves.toEqual(report);
    expect(requests[0]?.url).toBe('/health');
    expect(requests[0]?.headers.authorization).toBeUndefined();
  });

  it('refuses an empty path parameter instead of calling another route', async () => {
    const { baseUrl, requests } = await start((_req, res) => sendJson(res, 200, ok({})));
    const client = new Switchboard({ apiKey: 'k', baseUrl });
    await expect(client.messages.get('')).rejects.toThrow('Path parameter "id"');
    expect(requests).toHaveLength(0);
  });

  it('exposes the requestId on results and on the client', async () => {
    const { baseUrl } = await start((_req, res) => sendJson(res, 200, ok([], 'req_abc')));
    const client = new Switchboard({ apiKey: 'k', baseUrl });
    const { data, requestId, status, headers } = await client.numbers.list().withResponse();
    expect(data).toEqual([]);
    expect(requestId).toBe('req_abc');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(client.lastRequestId).toBe('req_abc');
  });

  it('rejects a 2xx that is not a success envelope', async () => {
    const { baseUrl } = await start((_req, res) => sendJson(res, 200, { unexpected: true }));
    const client = new Switchboard({ apiKey: 'k', baseUrl });
    await expect(client.numbers.list()).rejects.toThrow('Expected a Switchboard success envelope');
  });
});

describe('timeouts and aborts', () => {
  it('times out a slow attempt, retries it, and reports APIConnectionTimeoutError', async () => {
    const { baseUrl, requests } = await start(() => {
      // never answers
    });
    const client = new Switchboard({ apiKey: 'k', baseUrl, timeout: 50, sleep: noWait });
    const error = await client.numbers.list({ maxRetries: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('50 ms');
    expect(requests).toHaveLength(2);
  });

  it('applies a per-request timeout', async () => {
    const { baseUrl } = await start((_req, res) => {
      setTimeout(() => sendJson(res, 200, ok([])), 150);
    });
    const client = new Switchboard({ apiKey: 'k', baseUrl, maxRetries: 0 });
    await expect(client.numbers.list({ timeout: 30 })).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    await expect(client.numbers.list({ timeout: 5_000 })).resolves.toEqual([]);
  });

  it('stops at once, without retrying, when the caller aborts', async () => {
    const controller = new AbortController();
    // Aborted once the server holds the request (a fixed delay raced the request on a busy host).
    const { baseUrl, requests } = await start(() => controller.abort());
    const client = new Switchboard({ apiKey: 'k', baseUrl });
    const pending = client.numbers.list({ signal: controller.signal });
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
    const already = AbortSignal.abort();
    await expect(client.numbers.list({ signal: already })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
  });

  it('reports a refused connection as APIConnectionError', async () => {
    const { baseUrl } = await start(() => {});
    await server?.close();
    server = undefined;
    const client = new Switchboard({ apiKey: 'k', baseUrl, sleep: noWait });
    await expect(client.numbers.list()).rejects.toBeInstanceOf(APIConnectionError);
  });
});
