import { ManualClock } from '@switchboard/server';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, RateLimitError, Switchboard } from '../../src/index';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

let server: SwitchboardServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the SDK against the real server', () => {
  it('reads health without a key and lists numbers with one', async () => {
    server = await startServer();
    const client = new Switchboard({ apiKey: server.apiKey, baseUrl: server.baseUrl });
    const health = await client.health();
    expect(health.status).toMatch(/ok|degraded/);
    const { data, requestId } = await client.numbers.list().withResponse();
    expect(Array.isArray(data)).toBe(true);
    expect(requestId).toMatch(/^req_/);
  });

  it('throws AuthenticationError for an unknown key, with the request id', async () => {
    server = await startServer();
    const client = new Switchboard({ apiKey: 'sk_not_a_key', baseUrl: server.baseUrl });
    const error = await client.numbers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('UNAUTHORIZED');
    expect((error as AuthenticationError).requestId).toMatch(/^req_/);
  });

  it('retries a 429 after the Retry-After the server sent', async () => {
    const clock = new ManualClock();
    server = await startServer({ RATE_LIMIT_PER_MINUTE: '2' }, { clock });
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
    await expect(client.numbers.list()).resolves.toBeDefined();
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(60_000);
    const strict = new Switchboard({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      maxRetries: 0,
    });
    await strict.numbers.list(); // the second request of the new window
    const error = await strict.numbers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
  });
});
