import { type BuildAppOverrides, buildApp, loadConfig } from '@switchboard/server';

/** A real Switchboard server listening on loopback, with one customer and its API key. */
export interface SwitchboardServer {
  baseUrl: string;
  /** An API key of the test customer. */
  apiKey: string;
  /** The test customer's id. */
  customerId: string;
  /** The operator token of the admin API. */
  adminToken: string;
  close(): Promise<void>;
}

const ADMIN_TOKEN = 'sdk-test-admin-token-0123456789';

/**
 * Starts the real server in process (in-memory SQLite, simulator provider, silent logs) on a free
 * loopback port, and creates a customer and an API key through the admin API.
 */
export async function startServer(
  environment: Record<string, string> = {},
  overrides: BuildAppOverrides = {},
): Promise<SwitchboardServer> {
  const config = loadConfig({
    DATABASE_URL: ':memory:',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SIMULATOR_STEP_MS: '10',
    ...environment,
  });
  const app = await buildApp(config, overrides);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = address.replace('localhost', '127.0.0.1');
  try {
    const customer = await admin<{ id: string }>(baseUrl, '/admin/v1/customers', {
      name: 'SDK tests',
    });
    const key = await admin<{ key: string }>(
      baseUrl,
      `/admin/v1/customers/${customer.id}/api-keys`,
      { name: 'sdk' },
    );
    return {
      baseUrl,
      apiKey: key.key,
      customerId: customer.id,
      adminToken: ADMIN_TOKEN,
      close: () => app.close(),
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** Calls an admin route with the operator token and returns the envelope's data. */
export async function admin<T>(baseUrl: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(baseUrl + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { success: boolean; data: T };
  if (!response.ok || !envelope.success) {
    throw new Error(`admin ${path} answered ${response.status}: ${JSON.stringify(envelope)}`);
  }
  return envelope.data;
}
