import type { Instance, Message } from '@switchboard/contract';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from '@switchboard/testing/bluebubbles';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customerHelpers, eventually, type TestCustomer } from '../chats/chat-test-app';
import { adminHeaders, adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildListeningApp } from '../support/listening-app';
import { deliveredOrRead } from '../support/message-status';
import type { TestApp } from '../support/test-app';

const OWN = '+14155550100';
const CONTACT = '+14155550111';
const STALLING = `deliveries stalling on ${OWN} (imessage)`;

/** The value of one series of the delivery watchdog in a Prometheus page. */
function gauge(page: string, name: string): number | undefined {
  const line = page
    .split('\n')
    .find(
      (row) =>
        row.startsWith(`${name}{`) &&
        row.includes(`number="${OWN}"`) &&
        row.includes('channel="imessage"'),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('the delivery watchdog (BlueBubbles sends that never deliver)', () => {
  let fake: FakeBlueBubbles;
  let t: TestApp;
  let acme: TestCustomer;
  let instance: Instance;

  beforeEach(async () => {
    fake = new FakeBlueBubbles({ stepMs: 5, switches: PRIVATE_API_ENABLED });
    await fake.start();
    ({ t } = await buildListeningApp());
    instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
      name: 'mac',
      provider: 'bluebubbles',
      channels: ['imessage'],
      config: {
        serverUrl: fake.baseUrl,
        password: fake.password,
        address: OWN,
        pacing: { perSecond: 0, concurrency: 4 },
        deliveryWatchdog: {
          threshold: 0.6,
          minSample: 3,
          sampleSize: 3,
          windowSeconds: { imessage: 60 },
        },
      },
    });
    const { customerId, key } = await createCustomerWithNumber(t.app, 'Acme', OWN, instance.id);
    acme = customerHelpers(t, customerId, key);
  });

  afterEach(async () => {
    await t.close();
    await fake.stop();
  });

  /** Sends `count` iMessages and waits until each reached `status` (`delivered`: or read already). */
  async function sendAll(count: number, status: 'sent' | 'delivered'): Promise<void> {
    const reached = (message: Message) =>
      status === 'delivered' ? deliveredOrRead(message) : message.status === status;
    for (let i = 0; i < count; i += 1) {
      const { id } = await acme.ok<{ id: string }>(
        'POST',
        '/v1/messages',
        { to: CONTACT, content: { text: `hello ${i}` }, routing: { preference: ['imessage'] } },
        202,
      );
      await eventually(async () => {
        const message = await acme.ok<Message>('GET', `/v1/messages/${id}`);
        return reached(message) ? message : undefined;
      }, 8_000);
    }
  }

  /** The instance's warnings after a health check now. */
  async function warnings(): Promise<string[]> {
    await t.app.services.providers.checkInstanceHealth(instance.id);
    const response = await t.app.inject({
      url: `/admin/v1/instances/${instance.id}`,
      headers: adminHeaders,
    });
    return expectSuccess<Instance>(response).healthWarnings;
  }

  async function metricsPage(): Promise<string> {
    const response = await t.app.inject({ url: '/metrics', headers: adminHeaders });
    expect(response.statusCode).toBe(200);
    return response.body;
  }

  it('warns once enough sends stay undelivered past the window, shows the gauges, and clears on recovery', async () => {
    fake.faults.undelivered = true;
    await sendAll(3, 'sent');
    // Inside the window nothing is judged yet.
    expect((await warnings()).some((w) => w.includes(STALLING))).toBe(false);
    expect(gauge(await metricsPage(), 'switchboard_delivery_judged_sends')).toBe(0);

    t.clock.advance(61_000);
    const raised = await warnings();
    expect(raised).toContainEqual(
      `${STALLING}: 3 of the last 3 sends not delivered within 1 min: the Apple ID may be flagged`,
    );
    const page = await metricsPage();
    expect(gauge(page, 'switchboard_delivery_undelivered_ratio')).toBe(1);
    expect(gauge(page, 'switchboard_delivery_judged_sends')).toBe(3);
    expect(gauge(page, 'switchboard_delivery_stalling')).toBe(1);

    // Apple delivers again: the three newest judged sends are delivered.
    fake.faults.undelivered = false;
    await sendAll(3, 'delivered');
    expect((await warnings()).some((w) => w.includes(STALLING))).toBe(false);
    const recovered = await metricsPage();
    expect(gauge(recovered, 'switchboard_delivery_undelivered_ratio')).toBe(0);
    expect(gauge(recovered, 'switchboard_delivery_stalling')).toBe(0);
  });

  it('says nothing below the minimum sample, and nothing when the operator turns it off', async () => {
    fake.faults.undelivered = true;
    await sendAll(2, 'sent');
    t.clock.advance(61_000);
    expect((await warnings()).some((w) => w.includes(STALLING))).toBe(false);
    await sendAll(1, 'sent');
    t.clock.advance(61_000);
    expect((await warnings()).some((w) => w.includes(STALLING))).toBe(true);

    const response = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/instances/${instance.id}`,
      headers: adminHeaders,
      payload: { config: { deliveryWatchdog: { enabled: false } } },
    });
    expectSuccess(response);
    expect((await warnings()).some((w) => w.includes(STALLING))).toBe(false);
  });

  it('refuses settings outside the contract', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/instances/${instance.id}`,
      headers: adminHeaders,
      payload: { config: { deliveryWatchdog: { threshold: 2 } } },
    });
    expect(expectFailure(response, 400, 'VALIDATION_ERROR').error.message).toMatch(/threshold/);
  });
});
