import { describe, expect, it } from 'vitest';
import { FORBIDDEN_URLS } from '../support/forbidden-urls';
import { bodyOf } from '../support/test-app';
import {
  buildAppWithResolver,
  buildWebhookApp,
  call,
  createWebhook,
  receiver,
} from './webhook-test-support';

type Failure = { error: { code: string; message: string } };

describe('webhook URL safety through the API', () => {
  it(`refuses ${FORBIDDEN_URLS.length} forbidden URLs on create and on PATCH, naming the field`, async () => {
    const { app, auth } = await buildWebhookApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    const existing = await createWebhook(app, auth, {
      url: 'https://hooks.example.com/ok',
      events: ['*'],
    });
    expect(FORBIDDEN_URLS.length).toBeGreaterThanOrEqual(30);
    for (const url of FORBIDDEN_URLS) {
      const created = await call(app, auth, 'POST', '/v1/webhooks', { url, events: ['*'] });
      expect(created.statusCode, `create ${url}`).toBe(400);
      expect(bodyOf<Failure>(created).error.code).toBe('VALIDATION_ERROR');
      expect(bodyOf<Failure>(created).error.message, url).toMatch(/^url/);
      const patched = await call(app, auth, 'PATCH', `/v1/webhooks/${existing.id}`, { url });
      expect(patched.statusCode, `patch ${url}`).toBe(400);
      expect(bodyOf<Failure>(patched).error.message, url).toMatch(/^url/);
      const legacy = await call(app, auth, 'PUT', '/v1/webhooks', { url, events: ['*'] });
      expect(legacy.statusCode, `put ${url}`).toBe(400);
    }
    // Nothing was stored or changed.
    const list = bodyOf<{ data: Array<{ url: string; active: boolean }> }>(
      await call(app, auth, 'GET', '/v1/webhooks/list'),
    ).data;
    expect(list).toEqual([
      expect.objectContaining({ url: 'https://hooks.example.com/ok', active: true }),
    ]);
  });

  it('stores the normalized URL, so the host checked is the host connected to', async () => {
    const { app, auth } = await buildWebhookApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    const created = await createWebhook(app, auth, {
      url: 'HTTPS://Hooks.Example.COM:443/a/../b',
      events: ['*'],
    });
    expect(created.url).toBe('https://hooks.example.com/b');
  });

  it('admits http and loopback receivers with WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
    const { app, auth } = await buildWebhookApp();
    await createWebhook(app, auth, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    await createWebhook(app, auth, { url: 'http://localhost:9/hook', events: ['*'] });
  });

  it('never reaches the loopback when a public-looking name resolves there at connect time', async () => {
    const loopback = await receiver();
    const lookups: string[] = [];
    const { app, auth } = await buildAppWithResolver(
      async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
      { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' },
    );
    // Names are not resolved at creation: it passes the syntactic check.
    const created = await createWebhook(app, auth, {
      url: `https://rebind.example.com:${loopback.port}/hook`,
      events: ['*'],
    });
    const result = bodyOf<{ data: { delivered: boolean; error: string } }>(
      await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`),
    ).data;
    expect(result.delivered).toBe(false);
    expect(result.error).toMatch(
      /refused to connect to rebind\.example\.com: it resolved to 127\.0\.0\.1, a loopback address/,
    );
    expect(lookups).toContain('rebind.example.com');
    expect(loopback.requests).toEqual([]);
  });
});
