import type { ApiKey, AssignedNumber, Customer, Instance } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import {
  adminHeaders,
  assignNumber,
  createApiKey,
  createCustomer,
  createCustomerWithKey,
  createInstance,
} from './support/admin-helpers';
import { expectFailure, expectSuccess } from './support/envelope-assertions';
import { bearer, buildTestApp } from './support/test-app';

const UNKNOWN_ID = '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f';

describe('customers', () => {
  it('creates, lists and deletes customers', async () => {
    const { app } = await buildTestApp();
    const created = expectSuccess<Customer>(
      await app.inject({
        method: 'POST',
        url: '/admin/v1/customers',
        headers: adminHeaders,
        payload: { name: '  Acme  ', settings: { otpHandling: 'annotate' } },
      }),
      201,
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme',
      settings: { otpHandling: 'annotate', optOutHandling: 'gateway' },
      createdAt: '2026-01-15T12:00:00.000Z',
    });
    const other = await createCustomer(app, 'Globex');
    expect(other.settings).toEqual({ otpHandling: 'suppress', optOutHandling: 'gateway' });

    const list = await app.inject({
      method: 'GET',
      url: '/admin/v1/customers',
      headers: adminHeaders,
    });
    expect(expectSuccess<Customer[]>(list).map((c) => c.name)).toEqual(['Acme', 'Globex']);

    const deleted = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${created.id}`,
      headers: adminHeaders,
    });
    expect(expectSuccess(deleted)).toEqual({ id: created.id, deleted: true });
    const after = await app.inject({
      method: 'GET',
      url: '/admin/v1/customers',
      headers: adminHeaders,
    });
    expect(expectSuccess<Customer[]>(after).map((c) => c.name)).toEqual(['Globex']);

    const again = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${created.id}`,
      headers: adminHeaders,
    });
    expectFailure(again, 404, 'NOT_FOUND');
  });

  it("makes a deleted customer's keys answer 403 and releases its numbers", async () => {
    const { app } = await buildTestApp();
    const instance = await createInstance(app);
    const { customer, key } = await createCustomerWithKey(app);
    await assignNumber(app, customer.id, { phoneNumber: '+14155550100', instanceId: instance.id });
    expect(
      (await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) })).statusCode,
    ).toBe(200);

    await app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${customer.id}`,
      headers: adminHeaders,
    });

    expectFailure(
      await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) }),
      403,
      'FORBIDDEN',
    );
    const next = await createCustomer(app, 'Next owner');
    await assignNumber(app, next.id, { phoneNumber: '+14155550100', instanceId: instance.id });
    for (const url of [
      `/admin/v1/customers/${customer.id}/api-keys`,
      `/admin/v1/customers/${customer.id}/numbers`,
    ]) {
      expectFailure(
        await app.inject({ method: 'GET', url, headers: adminHeaders }),
        404,
        'NOT_FOUND',
      );
    }
  });
});

describe('API keys', () => {
  it('shows the plaintext once, lists keys without it, and revokes at once', async () => {
    const { app } = await buildTestApp();
    const customer = await createCustomer(app);
    const created = expectSuccess<ApiKey & { key: string }>(
      await app.inject({
        method: 'POST',
        url: `/admin/v1/customers/${customer.id}/api-keys`,
        headers: adminHeaders,
        payload: { name: 'production' },
      }),
      201,
    );
    expect(created.key).toMatch(/^sk_[0-9A-Za-z]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 11));
    expect(created).toMatchObject({ customerId: customer.id, name: 'production', revokedAt: null });
    const second = await createApiKey(app, customer.id);
    expect(second.key).not.toBe(created.key);
    expect(second.name).toBeNull();

    const listed = await app.inject({
      method: 'GET',
      url: `/admin/v1/customers/${customer.id}/api-keys`,
      headers: adminHeaders,
    });
    expect(listed.body).not.toContain(created.key);
    const keys = expectSuccess<ApiKey[]>(listed);
    expect(keys.map((k) => k.id)).toEqual([created.id, second.id]);
    for (const key of keys) expect(key).not.toHaveProperty('key');

    expect(
      (await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(created.key) }))
        .statusCode,
    ).toBe(200);
    const revoked = expectSuccess<ApiKey>(
      await app.inject({
        method: 'DELETE',
        url: `/admin/v1/api-keys/${created.id}`,
        headers: adminHeaders,
      }),
    );
    expect(revoked.revokedAt).toBe('2026-01-15T12:00:00.000Z');
    expectFailure(
      await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(created.key) }),
      401,
      'UNAUTHORIZED',
    );
    expect(
      (await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(second.key) }))
        .statusCode,
    ).toBe(200);

    const twice = expectSuccess<ApiKey>(
      await app.inject({
        method: 'DELETE',
        url: `/admin/v1/api-keys/${created.id}`,
        headers: adminHeaders,
      }),
    );
    expect(twice.revokedAt).toBe(revoked.revokedAt);
  });

  it('answers 404 for an unknown customer or key', async () => {
    const { app } = await buildTestApp();
    for (const [method, url] of [
      ['POST', `/admin/v1/customers/${UNKNOWN_ID}/api-keys`],
      ['GET', `/admin/v1/customers/${UNKNOWN_ID}/api-keys`],
      ['DELETE', `/admin/v1/api-keys/${UNKNOWN_ID}`],
    ] as const) {
      expectFailure(await app.inject({ method, url, headers: adminHeaders }), 404, 'NOT_FOUND');
    }
  });
});

describe('instances', () => {
  it('creates and lists instances, never returning a secret in clear', async () => {
    const { app } = await buildTestApp();
    const created = expectSuccess<Instance>(
      await app.inject({
        method: 'POST',
        url: '/admin/v1/instances',
        headers: adminHeaders,
        payload: {
          name: 'sim',
          provider: 'simulator',
          channels: ['imessage', 'sms'],
          config: { ingressSecret: 'hunter2-hunter2-hunter2', stepMs: 5 },
        },
      }),
      201,
    );
    expect(created).toEqual({
      id: expect.any(String),
      name: 'sim',
      provider: 'simulator',
      channels: ['imessage', 'sms'],
      config: { ingressSecret: '****ter2', stepMs: 5 },
      enabled: true,
      ingressUrl: expect.stringMatching(
        new RegExp(`^http://127\\.0\\.0\\.1:3000/providers/${created.id}/webhook/ingr_[\\w-]{43}$`),
      ),
      healthStatus: 'unknown',
      healthWarnings: [],
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
    });
    const list = await app.inject({
      method: 'GET',
      url: '/admin/v1/instances',
      headers: adminHeaders,
    });
    expect(expectSuccess<Instance[]>(list)).toEqual([created]);
    expect(list.body).not.toContain('hunter2');
  });

  it('rejects a taken name, an unknown provider and repeated channels', async () => {
    const { app } = await buildTestApp();
    await createInstance(app, 'sim');
    const post = (payload: object) =>
      app.inject({ method: 'POST', url: '/admin/v1/instances', headers: adminHeaders, payload });
    expectFailure(
      await post({ name: 'sim', provider: 'simulator', channels: ['sms'] }),
      409,
      'ALREADY_EXISTS',
    );
    expectFailure(
      await post({ name: 'b', provider: 'carrier-pigeon', channels: ['sms'] }),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(
      await post({ name: 'c', provider: 'simulator', channels: ['sms', 'sms'] }),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(
      await post({ name: 'd', provider: 'simulator', channels: [] }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('sender numbers', () => {
  it('assigns, lists and removes numbers, with one default per customer', async () => {
    const { app } = await buildTestApp();
    const instance = await createInstance(app, 'mac-mini');
    const { customer, key } = await createCustomerWithKey(app);
    const first = await assignNumber(app, customer.id, {
      phoneNumber: '+14155550100',
      instanceId: instance.id,
      isDefault: true,
    });
    expect(first).toEqual({
      phoneNumber: '+14155550100',
      email: null,
      customerId: customer.id,
      instanceId: instance.id,
      instanceName: 'mac-mini',
      channelInstances: {},
      isDefault: true,
      healthStatus: 'unknown',
      createdAt: '2026-01-15T12:00:00.000Z',
    });
    await assignNumber(app, customer.id, {
      phoneNumber: '+14155550101',
      email: 'hello@example.com',
      instanceId: instance.id,
      isDefault: true,
    });

    const customerView = expectSuccess(
      await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) }),
    );
    expect(customerView).toEqual([
      {
        phoneNumber: '+14155550101',
        email: 'hello@example.com',
        instanceName: 'mac-mini',
        isDefault: true,
        healthStatus: 'unknown',
      },
      {
        phoneNumber: '+14155550100',
        email: null,
        instanceName: 'mac-mini',
        isDefault: false,
        healthStatus: 'unknown',
      },
    ]);

    const removed = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${customer.id}/numbers/14155550101`,
      headers: adminHeaders,
    });
    expect(expectSuccess(removed)).toEqual({ phoneNumber: '+14155550101', deleted: true });
    const encoded = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${customer.id}/numbers/%2B14155550100`,
      headers: adminHeaders,
    });
    expect(expectSuccess(encoded)).toEqual({ phoneNumber: '+14155550100', deleted: true });
    const listed = await app.inject({
      method: 'GET',
      url: `/admin/v1/customers/${customer.id}/numbers`,
      headers: adminHeaders,
    });
    expect(expectSuccess<AssignedNumber[]>(listed)).toEqual([]);
  });

  it('refuses an address another customer holds, an unknown instance and an unknown number', async () => {
    const { app } = await buildTestApp();
    const instance = await createInstance(app);
    const a = await createCustomer(app, 'A');
    const b = await createCustomer(app, 'B');
    await assignNumber(app, a.id, {
      phoneNumber: '+14155550100',
      email: 'a@example.com',
      instanceId: instance.id,
    });
    const post = (customerId: string, payload: object) =>
      app.inject({
        method: 'POST',
        url: `/admin/v1/customers/${customerId}/numbers`,
        headers: adminHeaders,
        payload,
      });
    expectFailure(
      await post(b.id, { phoneNumber: '+14155550100', instanceId: instance.id }),
      409,
      'ALREADY_EXISTS',
    );
    expectFailure(
      await post(a.id, { phoneNumber: '+14155550100', instanceId: instance.id }),
      409,
      'ALREADY_EXISTS',
    );
    expectFailure(
      await post(b.id, {
        phoneNumber: '+14155550102',
        email: 'a@example.com',
        instanceId: instance.id,
      }),
      409,
      'ALREADY_EXISTS',
    );
    const unknownInstance = expectFailure(
      await post(b.id, { phoneNumber: '+14155550103', instanceId: UNKNOWN_ID }),
      400,
      'VALIDATION_ERROR',
    );
    expect(unknownInstance.error.message).toMatch(/^instanceId: /);
    expectFailure(
      await post(UNKNOWN_ID, { phoneNumber: '+14155550104', instanceId: instance.id }),
      404,
      'NOT_FOUND',
    );
    expectFailure(
      await app.inject({
        method: 'DELETE',
        url: `/admin/v1/customers/${b.id}/numbers/+14155550199`,
        headers: adminHeaders,
      }),
      404,
      'NOT_FOUND',
    );
    expectFailure(
      await app.inject({
        method: 'DELETE',
        url: `/admin/v1/customers/${b.id}/numbers/abc`,
        headers: adminHeaders,
      }),
      400,
      'INVALID_PHONE_NUMBER',
    );
  });
});
