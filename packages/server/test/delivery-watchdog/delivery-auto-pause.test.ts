import type { Instance, Message, MessageRouting, NumberSendPolicy } from '@switchboard/contract';
import { freeLoopbackPort } from '@switchboard/testing';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from '@switchboard/testing/bluebubbles';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customerHelpers, eventually, type TestCustomer } from '../chats/chat-test-app';
import {
  adminHeaders,
  adminPost,
  assignNumber,
  createCustomerWithNumber,
  createInstance,
} from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { deliveredOrRead } from '../support/message-status';
import { buildTestApp, type TestApp, tempDir } from '../support/test-app';

const OWN = '+14155550100';
const OTHER = '+14155550122';
const BETA = '+14155550133';
const CONTACT = '+14155550111';
const SETTLED_MS = 15_000;

/** One series of a gauge for `number` on iMessage in a Prometheus page. */
function gauge(page: string, name: string, number = OWN): number | undefined {
  const line = page
    .split('\n')
    .find(
      (row) =>
        row.startsWith(`${name}{`) &&
        row.includes(`number="${number}"`) &&
        row.includes('channel="imessage"'),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('the delivery watchdog pauses a stalling number when the operator opted in', () => {
  let fake: FakeBlueBubbles;
  let dir: string;
  let port: number;
  let t: TestApp;
  let acme: TestCustomer;
  let betaId: string;
  let instance: Instance;

  /** The gateway on `dir`, listening on `port` (the same address across a restart). */
  async function start(): Promise<TestApp> {
    const app = await buildTestApp({
      dir,
      env: {
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '100000',
        SEND_POLICY_RECHECK_MS: '50',
      },
    });
    await app.app.listen({ port, host: '127.0.0.1' });
    return app;
  }

  /** Creates the BlueBubbles instance with the watchdog's `extra` settings, and the customers. */
  async function setUp(extra: Record<string, unknown>): Promise<void> {
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
          ...extra,
        },
      },
    });
    const { customerId, key } = await createCustomerWithNumber(t.app, 'Acme', OWN, instance.id);
    const simulator = await createInstance(t.app, 'sim');
    await assignNumber(t.app, customerId, { phoneNumber: OTHER, instanceId: simulator.id });
    acme = customerHelpers(t, customerId, key);
    betaId = (await createCustomerWithNumber(t.app, 'Beta', BETA, simulator.id)).customerId;
  }

  beforeEach(async () => {
    fake = new FakeBlueBubbles({ stepMs: 5, switches: PRIVATE_API_ENABLED });
    await fake.start();
    dir = tempDir();
    port = await freeLoopbackPort();
    t = await start();
  });

  afterEach(async () => {
    await t.close();
    await fake.stop();
  });

  /** Sends one message from `from` (iMessage, SMS from the simulator's number); answers its id. */
  async function send(from = OWN): Promise<string> {
    const channel = from === OWN ? 'imessage' : 'sms';
    const { id } = await acme.ok<{ id: string }>(
      'POST',
      '/v1/messages',
      {
        from,
        to: CONTACT,
        content: { text: 'hello' },
        routing: { preference: [channel], fallback: false },
      },
      202,
    );
    return id;
  }

  /** Waits until the message answers `test`. */
  function until(id: string, test: (message: Message) => boolean): Promise<Message> {
    return eventually(async () => {
      const message = await acme.ok<Message>('GET', `/v1/messages/${id}`);
      return test(message) ? message : undefined;
    }, SETTLED_MS);
  }

  /** Sends `count` iMessages from the watched number, each waited until `sent`. */
  async function sendAll(count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) await until(await send(), (m) => m.status === 'sent');
  }

  /** Three sends never delivered, judged a minute later. */
  async function stall(): Promise<void> {
    fake.faults.undelivered = true;
    await sendAll(3);
    t.clock.advance(61_000);
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

  /** The number's iMessage policy as the operator reads it. */
  async function operatorView(customerId = acme.customerId, number = OWN) {
    const response = await t.app.inject({
      url: `/admin/v1/customers/${customerId}/numbers/${number}/send-policy`,
      headers: adminHeaders,
    });
    return expectSuccess<NumberSendPolicy>(response).effective.find(
      (e) => e.channel === 'imessage',
    );
  }

  function resume(customerId: string, number = OWN, query = '') {
    return t.app.inject({
      method: 'POST',
      url: `/admin/v1/customers/${customerId}/numbers/${number}/send-policy/resume${query}`,
      headers: adminHeaders,
    });
  }

  it('pauses the stalling number, holds its sends `paused`, and lets them go on resume', async () => {
    await setUp({ autoPause: true });
    await stall();
    const raised = await warnings();
    expect(raised.some((w) => w.startsWith(`deliveries stalling on ${OWN} (imessage)`))).toBe(true);
    expect(raised).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^sends of \\${OWN} on imessage paused by the delivery watchdog since .*resume with POST /admin/v1/customers/${acme.customerId}/numbers/\\${OWN}/send-policy/resume\\?channel=imessage`,
        ),
      ),
    );
    const paused = await operatorView();
    expect(paused?.paused?.reason).toMatch(/^deliveries stalling on/);
    expect(paused?.paused?.since).toBe(new Date(t.clock.now()).toISOString());
    const customerView = await acme.ok<NumberSendPolicy>('GET', `/v1/numbers/${OWN}/send-policy`);
    expect(customerView.effective[0]?.paused).toEqual(paused?.paused);
    expect(gauge(await metricsPage(), 'switchboard_delivery_paused')).toBe(1);

    // A new send waits `queued` with the hold, on the same number.
    fake.faults.undelivered = false;
    const held = await until(await send(), (m) => m.hold?.code === 'paused');
    expect(held).toMatchObject({ status: 'queued', from: OWN });
    expect(held.hold?.message).toMatch(/paused this number's sends on imessage/);
    const trace = await acme.ok<MessageRouting>('GET', `/v1/messages/${held.id}/routing`);
    expect(trace.steps.at(-1)).toMatchObject({
      decision: 'waited',
      reason: 'send_policy',
      code: 'paused',
    });
    // Another number of the same customer sends as before.
    const other = await until(await send(OTHER), (m) => m.status !== 'queued');
    expect(other.hold ?? null).toBeNull();
    expect(other.status).not.toBe('failed');
    expect(gauge(await metricsPage(), 'switchboard_delivery_paused', OTHER)).not.toBe(1);

    // Another customer's number is not found; a channel outside the contract is refused.
    expectFailure(await resume(betaId), 404, 'NOT_FOUND');
    expectFailure(await resume(acme.customerId, OWN, '?channel=telegram'), 400, 'VALIDATION_ERROR');
    expect((await operatorView())?.paused).not.toBeNull();

    // The operator resumes: the held message leaves and is delivered.
    const resumed = expectSuccess<NumberSendPolicy>(await resume(acme.customerId));
    expect(resumed.effective.find((e) => e.channel === 'imessage')?.paused).toBeNull();
    const delivered = await until(held.id, deliveredOrRead);
    expect(delivered.hold ?? null).toBeNull();
    expect(delivered.from).toBe(OWN);

    // The evidence from before the resume does not pause it again.
    const after = await warnings();
    expect(after.some((w) => w.includes('paused by the delivery watchdog'))).toBe(false);
    expect((await operatorView())?.paused).toBeNull();
    expect(gauge(await metricsPage(), 'switchboard_delivery_paused')).toBe(0);
    // Resuming a number not paused is no error: its policy, unchanged.
    const again = expectSuccess<NumberSendPolicy>(
      await resume(acme.customerId, OWN, '?channel=imessage'),
    );
    expect(again.effective.find((e) => e.channel === 'imessage')?.paused).toBeNull();
  });

  it('never pauses with autoPause off (the default): the stalling number keeps sending', async () => {
    await setUp({});
    await stall();
    const raised = await warnings();
    expect(raised.some((w) => w.startsWith(`deliveries stalling on ${OWN}`))).toBe(true);
    expect(raised.some((w) => w.includes('paused'))).toBe(false);
    expect((await operatorView())?.paused).toBeNull();
    const next = await until(await send(), (m) => m.status === 'sent');
    expect(next.hold ?? null).toBeNull();
    expect(gauge(await metricsPage(), 'switchboard_delivery_paused')).toBe(0);
  });

  it('refuses an autoPause that is not a boolean', async () => {
    await setUp({});
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/instances/${instance.id}`,
      headers: adminHeaders,
      payload: { config: { deliveryWatchdog: { autoPause: 'yes' } } },
    });
    expect(expectFailure(response, 400, 'VALIDATION_ERROR').error.message).toMatch(/autoPause/);
  });

  it('keeps the pause across a restart on the same database, until the operator resumes', async () => {
    await setUp({ autoPause: true });
    await stall();
    await warnings();
    const since = (await operatorView())?.paused?.since;
    expect(since).toBeDefined();

    await t.close();
    t = await start();
    acme = customerHelpers(t, acme.customerId, acme.key);
    t.clock.advance(61_000);
    expect((await operatorView())?.paused?.since).toBe(since);
    expect(await warnings()).toContainEqual(
      expect.stringContaining('paused by the delivery watchdog'),
    );
    fake.faults.undelivered = false;
    const held = await until(await send(), (m) => m.hold?.code === 'paused');
    expect(held.status).toBe('queued');

    expectSuccess(await resume(acme.customerId, OWN, '?channel=imessage'));
    expect((await until(held.id, deliveredOrRead)).from).toBe(OWN);
  });
});
