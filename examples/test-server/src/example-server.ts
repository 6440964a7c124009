import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssignedNumber, CreatedApiKey, Customer, Instance } from '@switchboard/contract';
import { buildApp, loadConfig, QUICKSTART_NUMBERS } from '@switchboard/server';

/** A real Switchboard server on loopback, seeded like `./switchboard quickstart`. */
export interface ExampleServer {
  /** Where the server listens: pass it as the SDK's `baseUrl`. */
  baseUrl: string;
  /** The demo customer's API key. */
  apiKey: string;
  /** The customer's sender numbers, the default first. */
  numbers: readonly string[];
  /** Stops the server and removes its database. */
  close(): Promise<void>;
}

/** Options of {@link startExampleServer}. */
export interface StartExampleServerOptions {
  /** Server environment variables on top of the defaults below. */
  env?: Record<string, string>;
}

const ADMIN_TOKEN = 'examples-admin-token-0123456789';

/**
 * Starts the real server in process on a free loopback port (a temporary SQLite file, the
 * simulator with instant steps, `WEBHOOK_ALLOW_PRIVATE_URLS=true` so a receiver on 127.0.0.1 can
 * be registered, silent logs), then creates a simulator instance, a customer, an API key and the
 * quickstart sender numbers through the admin API.
 * @example
 * const server = await startExampleServer();
 * const client = new Switchboard({ apiKey: server.apiKey, baseUrl: server.baseUrl });
 */
export async function startExampleServer(
  options: StartExampleServerOptions = {},
): Promise<ExampleServer> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-example-'));
  const config = loadConfig({
    DATABASE_URL: join(dir, 'switchboard.db'),
    LOG_LEVEL: 'silent',
    SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
    SIMULATOR_STEP_MS: '0',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    ...options.env,
  });
  const app = await buildApp(config);
  const close = async () => {
    const closing = app.close();
    // After a client aborts an event stream, Node's fetch opens a spare connection that never
    // sends a request; the server's close would wait seconds for the client to drop it.
    app.server.closeAllConnections();
    await closing;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = address.replace('localhost', '127.0.0.1');
    const seeded = await seedQuickstart(baseUrl);
    return { baseUrl, ...seeded, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Seeds what `./switchboard quickstart` seeds, through the admin API. */
async function seedQuickstart(
  baseUrl: string,
): Promise<{ apiKey: string; numbers: readonly string[] }> {
  const instance = await adminPost<Instance>(baseUrl, '/admin/v1/instances', {
    name: 'simulator',
    provider: 'simulator',
    channels: ['imessage', 'sms', 'whatsapp'],
  });
  const customer = await adminPost<Customer>(baseUrl, '/admin/v1/customers', {
    name: 'Demo customer',
  });
  const key = await adminPost<CreatedApiKey>(
    baseUrl,
    `/admin/v1/customers/${customer.id}/api-keys`,
    { name: 'examples' },
  );
  for (const [index, phoneNumber] of QUICKSTART_NUMBERS.entries()) {
    await adminPost<AssignedNumber>(baseUrl, `/admin/v1/customers/${customer.id}/numbers`, {
      phoneNumber,
      instanceId: instance.id,
      isDefault: index === 0,
    });
  }
  return { apiKey: key.key, numbers: QUICKSTART_NUMBERS };
}

/** POSTs to an admin route with the operator token and returns the envelope's data. */
async function adminPost<T>(baseUrl: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { success: boolean; data: T };
  if (!response.ok || !envelope.success) {
    throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(envelope)}`);
  }
  return envelope.data;
}
