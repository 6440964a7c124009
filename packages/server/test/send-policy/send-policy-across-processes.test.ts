import type { Instance, Message, NumberSendPolicy } from '@switchboard/contract';
import { describe, expect, it, onTestFinished } from 'vitest';
import { adminHeaders, adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import { expectSuccess } from '../support/envelope-assertions';
import { createTestDatabase, TEST_ENCRYPTION_KEY } from '../support/postgres-database';
import { buildSimulatorTestApp } from '../support/simulator-app';
import { bearer, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const NUMBER = '+14155550100';
const CAP = 4;
const SENDS = 12;

/** A customer with a number on a simulator instance, capped at {@link CAP} iMessage sends a day. */
async function capped(first: TestApp): Promise<{ customerId: string; key: string }> {
  const instance = await adminPost<Instance>(first.app, '/admin/v1/instances', {
    name: 'sim',
    provider: 'simulator',
  });
  const customer = await createCustomerWithNumber(first.app, 'Acme', NUMBER, instance.id);
  expectSuccess(
    await first.app.inject({
      method: 'PUT',
      url: `/admin/v1/customers/${customer.customerId}/numbers/${encodeURIComponent(NUMBER)}/send-policy`,
      headers: adminHeaders,
      payload: { alreadyWarm: true, channels: { imessage: { dailyCap: CAP } } },
    }),
  );
  return customer;
}

/**
 * Sends {@link SENDS} messages at once, the i-th through `apps[i % apps.length]`, and answers, once
 * every one has either left or been held, how many left and how many are held.
 */
async function burst(apps: TestApp[], key: string): Promise<{ left: number; held: number }> {
  const ids = await Promise.all(
    Array.from({ length: SENDS }, async (_, index) => {
      const app = (apps[index % apps.length] as TestApp).app;
      const sent = expectSuccess<{ id: string }>(
        await app.inject({
          method: 'POST',
          url: '/v1/messages',
          headers: bearer(key),
          payload: {
            to: `+1415555088${index % 10}`,
            content: { text: `burst ${index}` },
            routing: { preference: ['imessage'], fallback: false },
          },
        }),
        202,
      );
      return sent.id;
    }),
  );
  const reader = (apps[0] as TestApp).app;
  return waitFor(async () => {
    const messages = await Promise.all(
      ids.map(async (id) =>
        expectSuccess<Message>(
          await reader.inject({ method: 'GET', url: `/v1/messages/${id}`, headers: bearer(key) }),
        ),
      ),
    );
    const held = messages.filter((m) => m.status === 'queued' && m.hold?.code === 'daily_cap');
    const left = messages.filter((m) => m.status !== 'queued' && m.status !== 'pending');
    return held.length + left.length === SENDS
      ? { left: left.length, held: held.length }
      : undefined;
  }, 15_000);
}

/** Today's counted sends of the number on iMessage, as the customer reads them. */
async function countedToday(app: TestApp, key: string): Promise<number | undefined> {
  const policy = expectSuccess<NumberSendPolicy>(
    await app.app.inject({
      method: 'GET',
      url: `/v1/numbers/${encodeURIComponent(NUMBER)}/send-policy`,
      headers: bearer(key),
    }),
  );
  return policy.effective.find((entry) => entry.channel === 'imessage')?.usage.sends;
}

describe('a daily cap holds however many workers send at once', () => {
  it('lets exactly the cap through a burst on one process', async () => {
    const t = await buildSimulatorTestApp({ env: { SEND_POLICY_RECHECK_MS: '50' } });
    onTestFinished(() => t.close());
    const { key } = await capped(t);
    expect(await burst([t], key)).toEqual({ left: CAP, held: SENDS - CAP });
    expect(await countedToday(t, key)).toBe(CAP);
  });

  it('lets exactly the cap through a burst spread over three processes on one PostgreSQL database', async () => {
    const database = await createTestDatabase();
    onTestFinished(() => database.drop());
    const env = {
      DATABASE_URL: database.url,
      SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SEND_POLICY_RECHECK_MS: '50',
    };
    const apps: TestApp[] = [];
    for (let index = 0; index < 3; index += 1) {
      const app = await buildSimulatorTestApp({ env });
      onTestFinished(() => app.close());
      apps.push(app);
    }
    const { key } = await capped(apps[0] as TestApp);
    expect(await burst(apps, key)).toEqual({ left: CAP, held: SENDS - CAP });
    expect(await countedToday(apps[2] as TestApp, key)).toBe(CAP);
  });
});
