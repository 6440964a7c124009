import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  type LoopbackReceiver,
  type ReceiverHandler,
  startLoopbackReceiver,
} from '@switchboard/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, onTestFinished } from 'vitest';
import { buildApp } from '../../src/app';
import { ManualClock } from '../../src/clock';
import { loadConfig } from '../../src/config';
import type { HostResolver } from '../../src/egress/safe-dispatcher';
import type { RecordedEvent } from '../../src/events/event-recorder';
import { createCustomerWithKey } from '../support/admin-helpers';
import {
  ADMIN_TOKEN,
  bearer,
  bodyOf,
  buildTestApp,
  type TestApp,
  type TestAppOptions,
  tempDir,
} from '../support/test-app';

/** Environment of a test app that delivers to loopback receivers quickly. */
export const FAST_DELIVERY_ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '20',
  WEBHOOK_TIMEOUT_MS: '2000',
  RATE_LIMIT_PER_MINUTE: '100000',
  LOG_LEVEL: 'warn',
} as const;

/** A test app (fast delivery settings) with one customer and its key. */
export interface WebhookTestApp extends TestApp {
  /** The customer's id. */
  customerId: string;
  /** Headers authenticating as the customer. */
  auth: { authorization: string };
}

/** Builds a test app with {@link FAST_DELIVERY_ENV} plus `env`, and a customer with a key. */
export async function buildWebhookApp(options: TestAppOptions = {}): Promise<WebhookTestApp> {
  const testApp = await buildTestApp({
    ...options,
    env: { ...FAST_DELIVERY_ENV, ...options.env },
  });
  const { customer, key } = await createCustomerWithKey(testApp.app);
  return { ...testApp, customerId: customer.id, auth: bearer(key) };
}

/** Starts a loopback receiver that is closed when the test ends. */
export async function receiver(handler?: ReceiverHandler): Promise<LoopbackReceiver> {
  const started = await startLoopbackReceiver(handler);
  onTestFinished(() => started.close());
  return started;
}

/** Registers a webhook through the API and returns the created object (secret included). */
export async function createWebhook(
  app: FastifyInstance,
  auth: { authorization: string },
  body: Record<string, unknown>,
): Promise<{ id: string; secret?: string; url: string; events: string[]; active: boolean }> {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<{
    data: { id: string; secret?: string; url: string; events: string[]; active: boolean };
  }>(response).data;
}

/** Injects a request with the customer's key. */
export function call(
  app: FastifyInstance,
  auth: { authorization: string },
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: auth,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/**
 * Checks a delivery's signature the way a receiver following the spec would, independently of
 * the server's signer: HMAC-SHA256 keyed with the secret over `<X-Timestamp>.<raw body>`,
 * lowercase hex, `sha256=` prefix, compared in constant time.
 */
export function signatureIsValid(
  secret: string,
  headers: IncomingHttpHeaders,
  rawBody: Buffer,
): boolean {
  const timestamp = headers['x-timestamp'];
  const signature = headers['x-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Waits until a condition holds (the shared test helper). */
export { waitFor } from '../support/wait-for';

/** Lets in-flight work settle for `ms` (used only to prove that something does NOT happen). */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A message lifecycle `data` body that passes the contract. */
export function lifecycleData(overrides: Record<string, unknown> = {}) {
  return {
    messageId: 'msg_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
    externalMessageId: null,
    from: '+14155550100',
    to: '+14155550123',
    text: 'hello',
    channel: 'imessage' as const,
    metadata: null,
    status: 'sent' as const,
    ...overrides,
  };
}

/** The correlation id the tests record events with. */
export const TEST_CORRELATION_ID = 'cor_0123456789abcdef0123456789abcdef';

/**
 * Records a `message.sent` event through the EventRecorder, as a producer would (messaging is
 * the public trigger once it lands; until then the tests produce events this way).
 */
export function recordSent(
  testApp: WebhookTestApp,
  options: { callbackUrl?: string; customerId?: string; text?: string } = {},
): Promise<RecordedEvent> {
  const { app } = testApp;
  return app.store.transaction((tx) =>
    app.services.events.record(tx, {
      customerId: options.customerId ?? testApp.customerId,
      type: 'message.sent',
      correlationId: TEST_CORRELATION_ID,
      ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
      data: lifecycleData(options.text === undefined ? {} : { text: options.text }),
    }),
  );
}

/**
 * Builds the real app with a scripted DNS resolver for the dispatcher's connect-time check (the
 * shared `buildTestApp` has no such override); closed when the test ends.
 */
export async function buildAppWithResolver(
  resolver: HostResolver,
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; auth: { authorization: string } }> {
  const dir = tempDir();
  const config = loadConfig({
    DATABASE_URL: join(dir, 'switchboard.db'),
    SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
    ...FAST_DELIVERY_ENV,
    ...env,
  });
  const app = await buildApp(config, {
    clock: new ManualClock(Date.parse('2026-01-15T12:00:00.000Z')),
    webhookResolver: resolver,
    logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
  });
  onTestFinished(() => app.close());
  const { key } = await createCustomerWithKey(app);
  return { app, auth: bearer(key) };
}

/** One row of the delivery log, as the API shows it. */
export interface LoggedDelivery {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  trigger: string;
  status: string;
  statusCode: number | null;
  error: string | null;
  attemptedAt: string | null;
  nextAttemptAt: string | null;
}

/** The webhook's delivery log through the API, oldest first (easier to read in assertions). */
export async function deliveriesOf(
  app: FastifyInstance,
  auth: { authorization: string },
  webhookId: string,
): Promise<LoggedDelivery[]> {
  const response = await call(app, auth, 'GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<{ data: { deliveries: LoggedDelivery[] } }>(response).data.deliveries.reverse();
}
