import { describe, expect, it } from 'vitest';
import {
  adminHeaders,
  assignNumber,
  createCustomerWithKey,
  createInstance,
} from './support/admin-helpers';
import { expectFailure, expectSuccess } from './support/envelope-assertions';
import { bearer, buildTestApp } from './support/test-app';

describe('isolation between customers', () => {
  it('shows each customer only its own sender numbers', async () => {
    const { app } = await buildTestApp();
    const instance = await createInstance(app);
    const a = await createCustomerWithKey(app, 'A');
    const b = await createCustomerWithKey(app, 'B');
    await assignNumber(app, a.customer.id, {
      phoneNumber: '+14155550100',
      instanceId: instance.id,
      isDefault: true,
    });
    await assignNumber(app, b.customer.id, {
      phoneNumber: '+14155550101',
      instanceId: instance.id,
      isDefault: true,
    });
    await assignNumber(app, b.customer.id, {
      phoneNumber: '+14155550102',
      instanceId: instance.id,
    });

    const numbersOf = async (key: string) =>
      expectSuccess<{ phoneNumber: string }[]>(
        await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) }),
      ).map((n) => n.phoneNumber);
    expect(await numbersOf(a.key)).toEqual(['+14155550100']);
    expect(await numbersOf(b.key)).toEqual(['+14155550101', '+14155550102']);
  });

  it("answers another customer's number exactly like a number that does not exist", async () => {
    const { app } = await buildTestApp();
    const instance = await createInstance(app);
    const a = await createCustomerWithKey(app, 'A');
    const b = await createCustomerWithKey(app, 'B');
    await assignNumber(app, b.customer.id, {
      phoneNumber: '+14155550101',
      instanceId: instance.id,
    });

    const remove = (phone: string) =>
      app.inject({
        method: 'DELETE',
        url: `/admin/v1/customers/${a.customer.id}/numbers/${encodeURIComponent(phone)}`,
        headers: adminHeaders,
      });
    const foreign = expectFailure(await remove('+14155550101'), 404, 'NOT_FOUND');
    const missing = expectFailure(await remove('+14155550199'), 404, 'NOT_FOUND');
    expect(foreign.error.message.replace('+14155550101', 'N')).toBe(
      missing.error.message.replace('+14155550199', 'N'),
    );
    // B still has it.
    expect(
      expectSuccess<unknown[]>(
        await app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(b.key) }),
      ),
    ).toHaveLength(1);
  });

  it("never lists another customer's API keys", async () => {
    const { app } = await buildTestApp();
    const a = await createCustomerWithKey(app, 'A');
    const b = await createCustomerWithKey(app, 'B');
    const list = expectSuccess<{ id: string }[]>(
      await app.inject({
        method: 'GET',
        url: `/admin/v1/customers/${a.customer.id}/api-keys`,
        headers: adminHeaders,
      }),
    );
    expect(list.map((k) => k.id)).toEqual([a.apiKey.id]);
    expect(list.map((k) => k.id)).not.toContain(b.apiKey.id);
  });
});
