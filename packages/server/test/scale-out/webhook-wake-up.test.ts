import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createCustomerWithKey } from '../support/admin-helpers';
import { createTestDatabase, TEST_ENCRYPTION_KEY } from '../support/postgres-database';
import { bearer, buildTestApp } from '../support/test-app';
import {
  createWebhook,
  FAST_DELIVERY_ENV,
  receiver,
  recordSent,
  waitFor,
} from '../webhooks/webhook-test-support';

/** A fallback poll far beyond the test's wait: only a wake-up delivers in time. */
const LONG_POLL_MS = 60_000;
/** How long the cluster may take to deliver (the poll it replaces would take 60 s). */
const PROMPTLY_MS = 5_000;

/**
 * Two processes on one database, each polling for due webhooks only every 60 s; process A's
 * dispatcher stopped (as in a shutdown) before it commits an event with a subscriber: answers
 * whether B delivered it, and how soon.
 */
async function deliveredByTheOther(redis: boolean): Promise<number> {
  const database = await createTestDatabase();
  onTestFinished(() => database.drop());
  const env = {
    ...FAST_DELIVERY_ENV,
    WEBHOOK_POLL_INTERVAL_MS: String(LONG_POLL_MS),
    DATABASE_URL: database.url,
    SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...(redis
      ? { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `test-${randomUUID()}:` }
      : {}),
  };
  const a = await buildTestApp({ env });
  // B delivers: its first poll (at its start) is behind it, the next one 60 s away.
  await buildTestApp({ env });
  const hooks = await receiver();
  const { customer, key } = await createCustomerWithKey(a.app);
  await createWebhook(a.app, bearer(key), {
    url: `${hooks.origin}/hook`,
    events: ['message.sent'],
  });
  await a.app.services.webhookDispatcher.stop();
  const committed = performance.now();
  await recordSent({ ...a, customerId: customer.id, auth: bearer(key) }, { text: 'woken' });
  await waitFor(() => hooks.requests.length > 0, PROMPTLY_MS, 'a delivery by B');
  const took = performance.now() - committed;
  expect(JSON.parse(hooks.requests[0]?.body.toString('utf8') ?? '{}')).toMatchObject({
    type: 'message.sent',
    data: { text: 'woken' },
  });
  return took;
}

describe('a webhook for an event committed by a process that does not deliver it', () => {
  for (const [name, redis] of [
    ['Redis pub/sub', true],
    ['the database’s LISTEN/NOTIFY', false],
  ] as const) {
    it(`is delivered by another process woken through ${name}, not on its 60 s poll`, async () => {
      const took = await deliveredByTheOther(redis);
      expect(took).toBeLessThan(PROMPTLY_MS);
    }, 30_000);
  }
});
