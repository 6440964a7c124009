import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, createCustomerWithKey } from './support/admin-helpers';
import { contractRoutes } from './support/contract-routes';
import { expectFailure } from './support/envelope-assertions';
import { bearer, buildTestApp, type TestApp } from './support/test-app';

const routes = contractRoutes();
const customerRoutes = routes.filter((route) => route.metadata.auth === undefined);
const adminRoutes = routes.filter((route) => route.metadata.auth === 'admin');
const openRoutes = routes.filter((route) => route.metadata.auth === false);
const metricsRoutes = routes.filter((route) => route.metadata.auth === 'metrics');

describe('authentication on every route of the contract', () => {
  let t: TestApp;
  let revokedKey: string;
  let orphanedKey: string;
  let liveKey: string;

  beforeAll(async () => {
    // Every route is called once with the live key: keep the limit out of the way.
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '10000' } });
    const live = await createCustomerWithKey(t.app, 'Live');
    liveKey = live.key;
    const revoked = await createCustomerWithKey(t.app, 'Revoked');
    revokedKey = revoked.key;
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/api-keys/${revoked.apiKey.id}`,
      headers: adminHeaders,
    });
    expect(revoke.statusCode).toBe(200);
    const orphaned = await createCustomerWithKey(t.app, 'Deleted');
    orphanedKey = orphaned.key;
    const remove = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${orphaned.customer.id}`,
      headers: adminHeaders,
    });
    expect(remove.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('finds the routes of the contract', () => {
    expect(customerRoutes.length).toBeGreaterThan(0);
    expect(adminRoutes.length).toBeGreaterThanOrEqual(11);
    expect(openRoutes.map((route) => route.name)).toContain('health.get');
  });

  const credentialCases = [
    { label: 'no Authorization header', headers: () => ({}) },
    { label: 'a malformed header', headers: () => ({ authorization: 'Basic Zm9vOmJhcg==' }) },
    { label: 'a malformed key', headers: () => bearer('sk_short') },
    {
      label: 'an unknown key',
      headers: () => bearer(`sk_${'A'.repeat(43)}`),
    },
    { label: 'a revoked key', headers: () => bearer(revokedKey) },
  ];

  describe.each(customerRoutes)('$method $path ($name)', (route) => {
    it('answers 401 UNAUTHORIZED, one and the same body, for every bad credential', async () => {
      const bodies = [];
      for (const credentials of credentialCases) {
        const response = await t.app.inject({
          method: route.method,
          url: route.url,
          headers: credentials.headers(),
        });
        const body = expectFailure(response, 401, 'UNAUTHORIZED');
        bodies.push({ ...body, requestId: undefined });
      }
      for (const body of bodies) expect(body).toEqual(bodies[0]);
    });

    it('answers 403 FORBIDDEN for a key whose customer was deleted', async () => {
      const response = await t.app.inject({
        method: route.method,
        url: route.url,
        headers: bearer(orphanedKey),
      });
      expectFailure(response, 403, 'FORBIDDEN');
    });

    it('lets a live key through authentication', async () => {
      const response = await t.app.inject({
        method: route.method,
        url: route.url,
        headers: bearer(liveKey),
        // The event stream never ends: take its status and headers without waiting for a body.
        payloadAsStream: route.name === 'events.stream',
      });
      expect(response.statusCode).not.toBe(401);
      if (response.statusCode === 403) {
        // The route's own answer, after authentication: the live customer owns no number.
        expect(JSON.parse(response.body).error.code).toBe('NUMBER_NOT_OWNED');
      }
      expect(response.headers['x-ratelimit-limit']).toBe('10000');
    });
  });

  describe.each(adminRoutes)('$method $path ($name)', (route) => {
    it('answers 401 UNAUTHORIZED without the operator token, with a wrong one, or a customer key', async () => {
      for (const headers of [{}, bearer('not-the-admin-token-at-all'), bearer(liveKey)]) {
        const response = await t.app.inject({ method: route.method, url: route.url, headers });
        expectFailure(response, 401, 'UNAUTHORIZED');
      }
    });

    it('is not rate limited per key', async () => {
      const response = await t.app.inject({
        method: route.method,
        url: route.url,
        headers: adminHeaders,
      });
      expect(response.statusCode).not.toBe(401);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    });
  });

  describe.each(openRoutes)('$method $path ($name)', (route) => {
    it('needs no credentials', async () => {
      const response = await t.app.inject({ method: route.method, url: route.url });
      expect(response.statusCode).not.toBe(401);
    });
  });

  it('knows who may call every route: a customer key, the operator token, metrics tokens or anyone', () => {
    expect(metricsRoutes.map((route) => route.url)).toEqual(['/metrics']);
    expect(
      customerRoutes.length + adminRoutes.length + openRoutes.length + metricsRoutes.length,
    ).toBe(routes.length);
  });

  describe.each(metricsRoutes)('$method $path ($name)', (route) => {
    it('answers 401 UNAUTHORIZED without the operator or metrics token, or with a customer key', async () => {
      for (const headers of [{}, bearer('not-the-admin-token-at-all'), bearer(liveKey)]) {
        const response = await t.app.inject({ method: route.method, url: route.url, headers });
        expectFailure(response, 401, 'UNAUTHORIZED');
      }
      const response = await t.app.inject({
        method: route.method,
        url: route.url,
        headers: adminHeaders,
      });
      expect(response.statusCode).toBe(200);
    });
  });
});

describe('the operator API without SWITCHBOARD_ADMIN_TOKEN', () => {
  it('answers 404 NOT_FOUND on the whole /admin tree, whatever the credentials', async () => {
    const t = await buildTestApp({ env: { SWITCHBOARD_ADMIN_TOKEN: '' } });
    // Without the operator API, seed a customer through the services the CLI uses.
    const customer = await t.app.services.customers.create({ name: 'Acme' });
    const { key } = await t.app.services.apiKeys.issue(customer.id);
    for (const route of [...adminRoutes, { method: 'GET' as const, url: '/admin/v1/anything' }]) {
      for (const headers of [{}, adminHeaders, bearer(key)]) {
        const response = await t.app.inject({ method: route.method, url: route.url, headers });
        expectFailure(response, 404, 'NOT_FOUND');
      }
    }
  });
});
