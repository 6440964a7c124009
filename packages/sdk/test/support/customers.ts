import type { CreatedApiKey, Customer } from '@switchboard/contract';
import { Switchboard } from '../../src/index';
import { admin, assignNumbers, type SwitchboardServer } from './switchboard-server';

/** A further customer of a running test server, with its own key, numbers and client. */
export interface TestCustomer {
  customerId: string;
  apiKey: string;
  /** Its sender numbers, the default first. */
  numbers: string[];
  /** A client for its key that does not wait between retries. */
  client: Switchboard;
}

/**
 * Creates another customer on `server` through the admin API, so a test can own every message
 * or webhook it lists. Sender numbers are unique across customers: give each customer its own.
 */
export async function createCustomer(
  server: SwitchboardServer,
  name: string,
  numbers: readonly string[] = [],
): Promise<TestCustomer> {
  const customer = await admin<Customer>(server.baseUrl, '/admin/v1/customers', { name });
  const key = await admin<CreatedApiKey>(
    server.baseUrl,
    `/admin/v1/customers/${customer.id}/api-keys`,
    { name },
  );
  if (numbers.length > 0) await assignNumbers(server.baseUrl, customer.id, numbers);
  return {
    customerId: customer.id,
    apiKey: key.key,
    numbers: [...numbers],
    client: clientFor(server.baseUrl, key.key),
  };
}

/** A client for a test server that retries without waiting. */
export function clientFor(baseUrl: string, apiKey: string): Switchboard {
  return new Switchboard({ apiKey, baseUrl, sleep: async () => {} });
}
