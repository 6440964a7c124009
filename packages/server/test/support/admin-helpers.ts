import type { AssignedNumber, CreatedApiKey, Customer, Instance } from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { ADMIN_TOKEN, bearer, bodyOf } from './test-app';

/** Headers of an operator request. */
export const adminHeaders = bearer(ADMIN_TOKEN);

/** POSTs `payload` to an operator route and returns the created resource (asserts 201). */
export async function adminPost<T>(
  app: FastifyInstance,
  url: string,
  payload?: object,
): Promise<T> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: adminHeaders,
    ...(payload ? { payload } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<{ data: T }>(response).data;
}

/** Creates a customer through the operator API. */
export function createCustomer(app: FastifyInstance, name = 'Acme'): Promise<Customer> {
  return adminPost(app, '/admin/v1/customers', { name });
}

/** Issues an API key for a customer through the operator API. */
export function createApiKey(app: FastifyInstance, customerId: string): Promise<CreatedApiKey> {
  return adminPost(app, `/admin/v1/customers/${customerId}/api-keys`);
}

/** Creates a customer and one API key for it. */
export async function createCustomerWithKey(
  app: FastifyInstance,
  name = 'Acme',
): Promise<{ customer: Customer; apiKey: CreatedApiKey; key: string }> {
  const customer = await createCustomer(app, name);
  const apiKey = await createApiKey(app, customer.id);
  return { customer, apiKey, key: apiKey.key };
}

/** Registers a simulator instance through the operator API. */
export function createInstance(
  app: FastifyInstance,
  name = 'simulator',
  channels: Instance['channels'] = ['imessage', 'sms', 'whatsapp'],
): Promise<Instance> {
  return adminPost(app, '/admin/v1/instances', { name, provider: 'simulator', channels });
}

/** Assigns a sender number to a customer through the operator API. */
export function assignNumber(
  app: FastifyInstance,
  customerId: string,
  body: { phoneNumber: string; instanceId: string; isDefault?: boolean; email?: string },
): Promise<AssignedNumber> {
  return adminPost(app, `/admin/v1/customers/${customerId}/numbers`, body);
}

/** Creates a customer with one API key and `phoneNumber` as its default number on `instanceId`. */
export async function createCustomerWithNumber(
  app: FastifyInstance,
  name: string,
  phoneNumber: string,
  instanceId: string,
): Promise<{ customerId: string; key: string }> {
  const { customer, key } = await createCustomerWithKey(app, name);
  await assignNumber(app, customer.id, { phoneNumber, instanceId, isDefault: true });
  return { customerId: customer.id, key };
}
