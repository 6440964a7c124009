import { describe, expect, it } from 'vitest';
import { createCustomerWithKey } from './support/admin-helpers';
import { expectFailure } from './support/envelope-assertions';
import { bearer, buildTestApp } from './support/test-app';

describe('the per-key rate limit', () => {
  it('lets exactly 100 of 150 concurrent requests through and answers the other 50 with 429', async () => {
    const { app, clock } = await buildTestApp();
    const { key } = await createCustomerWithKey(app);
    const windowEnd = Math.ceil((clock.now() + 60_000) / 1000);

    const startedAt = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 150 }, () =>
        app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) }),
      ),
    );

    const passed = responses.filter((response) => response.statusCode === 200);
    const limited = responses.filter((response) => response.statusCode === 429);
    expect(passed).toHaveLength(100);
    expect(limited).toHaveLength(50);
    expect(
      passed.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 100 }, (_, index) => index));
    // On Redis the time left in a window is Redis's own, in real time, while the app's clock here
    // stands still: the reset and `Retry-After` move back by the real seconds the 150 requests
    // took (on a busy machine, more than one). Without Redis they are the window's end exactly.
    const realSeconds = Math.ceil((Date.now() - startedAt) / 1000);
    for (const response of responses) {
      expect(response.headers['x-ratelimit-limit']).toBe('100');
      const reset = Number(response.headers['x-ratelimit-reset']);
      expect(reset).toBeLessThanOrEqual(windowEnd);
      expect(reset).toBeGreaterThanOrEqual(windowEnd - realSeconds);
    }
    for (const response of passed) expect(response.headers['retry-after']).toBeUndefined();
    for (const response of limited) {
      expectFailure(response, 429, 'RATE_LIMIT_EXCEEDED');
      expect(response.headers['x-ratelimit-remaining']).toBe('0');
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(retryAfter).toBeGreaterThanOrEqual(60 - realSeconds);
    }
  });

  it('counts each key on its own', async () => {
    const { app } = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    const first = await createCustomerWithKey(app, 'First');
    const second = await createCustomerWithKey(app, 'Second');
    const call = (key: string) =>
      app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) });

    for (let i = 0; i < 5; i += 1) expect((await call(first.key)).statusCode).toBe(200);
    expectFailure(await call(first.key), 429, 'RATE_LIMIT_EXCEEDED');

    const other = await call(second.key);
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-limit']).toBe('5');
    expect(other.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('opens a new window when the current one ends', async () => {
    // The process's own limit: Redis times its windows itself, not by the manual clock.
    const { app, clock } = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '2' },
      redis: false,
    });
    const { key } = await createCustomerWithKey(app);
    const call = () => app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) });

    await call();
    clock.advance(20_000);
    await call();
    const limited = await call();
    expectFailure(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect(limited.headers['retry-after']).toBe('40');

    clock.advance(39_999);
    expect((await call()).statusCode).toBe(429);
    clock.advance(1);
    const fresh = await call();
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('1');
    expect(fresh.headers['x-ratelimit-reset']).toBe(
      String(Math.ceil((clock.now() + 60_000) / 1000)),
    );
  });

  it('does not count requests that fail authentication', async () => {
    const { app } = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const { key } = await createCustomerWithKey(app);
    const wrongKey = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    for (let i = 0; i < 10; i += 1) {
      const response = await app.inject({
        method: 'GET',
        url: '/v1/numbers',
        headers: bearer(wrongKey),
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const response = await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) });
    expect(response.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('exempts /health', async () => {
    const { app } = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/health' })),
    );
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});
