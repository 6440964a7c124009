import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssignedNumber, CreatedApiKey, Customer, Instance } from '@switchboard/contract';
import { type BuildAppOverrides, buildApp, loadConfig } from '@switchboard/server';
import { freeLoopbackPort } from '@switchboard/testing';

/** A real Switchboard server listening on loopback, with one customer and its API key. */
export interface SwitchboardServer {
  baseUrl: string;
  /** An API key of the test customer. */
  apiKey: string;
  /** The test customer's id. */
  customerId: string;
  /** The operator token of the admin API. */
  adminToken: string;
  /** The customer's sender numbers, the default first (empty unless `numbers` was given). */
  numbers: string[];
  /** How many event streams the server holds open (to know when a stream is subscribed). */
  openStreams(): number;
  /** Stops the server and removes its database. */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** Environment variables on top of the test defaults. */
  env?: Record<string, string>;
  /** Replacements passed to `buildApp` (a `ManualClock` for rate-limit windows). */
  overrides?: BuildAppOverrides;
  /**
   * Sender numbers to assign to the customer on one simulator instance (all three channels),
   * the first one the default.
   */
  numbers?: readonly string[];
  /**
   * Listen on a free port chosen first and make it `PUBLIC_BASE_URL`, so upstream fakes can call
   * the server's ingress (otherwise the port is the system's pick and the public URL a default).
   */
  publicPort?: boolean;
}

const ADMIN_TOKEN = 'sdk-test-admin-token-0123456789';

/**
 * Starts the real server in process (a temporary SQLite file, the simulator with instant steps,
 * loopback webhooks allowed, silent logs) on a free loopback port, and creates a customer, an API
 * key and, when asked, sender numbers through the admin API.
 */
export async function startServer(options: StartServerOptions = {}): Promise<SwitchboardServer> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-sdk-'));
  const port = options.publicPort ? await freeLoopbackPort() : 0;
  const config = loadConfig({
    ...(options.publicPort ? { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } : {}),
    DATABASE_URL: join(dir, 'switchboard.db'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    SIMULATOR_STEP_MS: '0',
    // Polling a message's status adds up; the rate-limit tests set their own small limit.
    RATE_LIMIT_PER_MINUTE: '10000',
    ...options.env,
  });
  const app = await buildApp(config, options.overrides);
  const close = async () => {
    const closing = app.close();
    // After a client aborts an event stream, Node's fetch opens a spare connection that never
    // sends a request; the server's close would wait seconds for the client to drop it.
    app.server.closeAllConnections();
    await closing;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const address = await app.listen({ host: '127.0.0.1', port });
    const baseUrl = address.replace('localhost', '127.0.0.1');
    const customer = await admin<Customer>(baseUrl, '/admin/v1/customers', { name: 'SDK tests' });
    const key = await admin<CreatedApiKey>(baseUrl, `/admin/v1/customers/${customer.id}/api-keys`, {
      name: 'sdk',
    });
    const numbers = options.numbers ?? [];
    if (numbers.length > 0) await assignNumbers(baseUrl, customer.id, numbers);
    return {
      baseUrl,
      apiKey: key.key,
      customerId: customer.id,
      adminToken: ADMIN_TOKEN,
      numbers: [...numbers],
      openStreams: () => app.services.eventStreams.size,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Registers a simulator instance and assigns `numbers` to a customer, the first the default. */
export async function assignNumbers(
  baseUrl: string,
  customerId: string,
  numbers: readonly string[],
): Promise<AssignedNumber[]> {
  const instance = await admin<Instance>(baseUrl, '/admin/v1/instances', {
    name: `simulator-${customerId}`,
    provider: 'simulator',
    channels: ['imessage', 'sms', 'whatsapp'],
  });
  const assigned: AssignedNumber[] = [];
  for (const [index, phoneNumber] of numbers.entries()) {
    assigned.push(
      await admin<AssignedNumber>(baseUrl, `/admin/v1/customers/${customerId}/numbers`, {
        phoneNumber,
        instanceId: instance.id,
        isDefault: index === 0,
      }),
    );
  }
  return assigned;
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
