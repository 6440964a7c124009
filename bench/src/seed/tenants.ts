import type { CreatedApiKey, Customer, Instance } from '@switchboard/contract';
import { apiData } from '../api/api-client';
import { BENCH_ADMIN_TOKEN } from '../process/switchboard-server';
import { senderNumber } from './phone-numbers';

/** A customer seeded for a benchmark, with its API keys and default sender number. */
export interface Tenant {
  customerId: string;
  /** Plain API keys (`sk_…`). */
  keys: string[];
  /** The default sender number. */
  senderNumber: string;
}

/** What to seed. */
export interface TenantPlan {
  customers: number;
  keysPerCustomer: number;
}

/**
 * Seeds customers, API keys, one simulator instance and one default sender number per customer
 * through the operator API (`/admin/v1`), as an operator would.
 */
export async function seedTenants(baseUrl: string, plan: TenantPlan): Promise<Tenant[]> {
  const admin = { token: BENCH_ADMIN_TOKEN };
  const instance = await apiData<Instance>(baseUrl, 'POST', '/admin/v1/instances', {
    ...admin,
    expectedStatus: 201,
    body: {
      name: `bench-simulator-${Date.now()}`,
      provider: 'simulator',
      channels: ['imessage', 'sms', 'whatsapp'],
    },
  });
  const tenants: Tenant[] = [];
  for (let index = 0; index < plan.customers; index += 1) {
    const customer = await apiData<Customer>(baseUrl, 'POST', '/admin/v1/customers', {
      ...admin,
      expectedStatus: 201,
      body: { name: `Bench customer ${index}` },
    });
    const phoneNumber = senderNumber(index);
    await apiData(baseUrl, 'POST', `/admin/v1/customers/${customer.id}/numbers`, {
      ...admin,
      expectedStatus: 201,
      body: { phoneNumber, instanceId: instance.id, isDefault: true },
    });
    const keys: string[] = [];
    for (let k = 0; k < plan.keysPerCustomer; k += 1) {
      const created = await apiData<CreatedApiKey>(
        baseUrl,
        'POST',
        `/admin/v1/customers/${customer.id}/api-keys`,
        { ...admin, expectedStatus: 201, body: { name: `bench key ${k}` } },
      );
      keys.push(created.key);
    }
    tenants.push({ customerId: customer.id, keys, senderNumber: phoneNumber });
  }
  return tenants;
}
