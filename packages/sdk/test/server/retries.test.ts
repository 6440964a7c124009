import { ManualClock } from '@switchboard/server';
import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, RateLimitError, Switchboard } from '../../src/index';
import { type DroppingProxy, startDroppingProxy } from '../support/dropping-proxy';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

let server: SwitchboardServer | undefined;
let proxy: DroppingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = undefined;
  server = undefined;
});

/** The idempotency keys of the message sends in raw HTTP request bytes. */
function sentKeys(raw: string): string[] {
  return [...raw.matchAll(/POST \/v1\/messages [\s\S]*?"idempotencyKey":"([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
}

describe('retries against the real server', () => {
  it('retries a 429 after the Retry-After the server sent, on the server clock', async () => {
    const clock = new ManualClock();
    server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '2' }, overrides: { clock } });
    const waits: number[] = [];
    const client = new Switchboard({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      // Waiting advances the server's clock instead of sleeping, so the window really ends.
      sleep: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    });
    await client.numbers.list();
    await client.numbers.list();
    const { status, headers } = await client.numbers.list().withResponse();
    expect(status).toBe(200);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(60_000);
    expect(headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('throws RateLimitError with retryAfter when retries are off', async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
    const client = new Switchboard({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      maxRetries: 0,
    });
    await client.numbers.list();
    const error = await client.numbers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).code).toBe('RATE_LIMIT_EXCEEDED');
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
    expect((error as RateLimitError).retryAfter).toBeLessThanOrEqual(60);
  });

  it('retries a send whose answer was lost with the same idempotencyKey: one message', async () => {
    server = await startServer({ numbers: ['+14155550100'] });
    proxy = await startDroppingProxy(server.baseUrl, 1);
    const waits: number[] = [];
    const client = new Switchboard({
      apiKey: server.apiKey,
      baseUrl: proxy.baseUrl,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });

    const { data, status } = await client.messages
      .send({ to: '+12125550104', content: { text: 'Exactly once' } })
      .withResponse();

    // The server handled the first attempt; its 202 was lost and the retry got the replay (200).
    expect(waits).toHaveLength(1);
    expect(status).toBe(200);
    const keys = proxy.received.flatMap(sentKeys);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^sdk_/);
    expect(keys[1]).toBe(keys[0]);

    const direct = new Switchboard({ apiKey: server.apiKey, baseUrl: server.baseUrl });
    const messages = [];
    for await (const message of direct.messages.list()) messages.push(message);
    expect(messages.map((message) => message.id)).toEqual([data.id]);
  });

  it('throws APIConnectionError when the connection drops and retries are off', async () => {
    server = await startServer();
    proxy = await startDroppingProxy(server.baseUrl, 1);
    const client = new Switchboard({
      apiKey: server.apiKey,
      baseUrl: proxy.baseUrl,
      maxRetries: 0,
    });
    const error = await client.numbers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).status).toBeUndefined();
    // The next request goes through a new connection, which the proxy forwards.
    await expect(client.numbers.list()).resolves.toEqual([]);
  });
});
