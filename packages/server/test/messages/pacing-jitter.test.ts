import type { Instance } from '@switchboard/contract';
import { FakeTwilio } from '@switchboard/testing/twilio';
import { describe, expect, it, onTestFinished } from 'vitest';
import { adminHeaders, adminPost, assignNumber } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildListeningApp } from '../support/listening-app';
import { bearer, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const NUMBER = '+14155550100';
const CONTACT = '+14155550111';
const SENDS = 10;
const PER_SECOND = 2;
const INTERVAL_MS = 1000 / PER_SECOND;
/**
 * How much later than its neighbour one request may reach the fake on a loaded machine (its
 * send-ledger write, the HTTP hop, a busy event loop: up to ~270 ms was measured under load).
 */
const PATH_TOLERANCE_MS = 150;

/** The gateway with a Twilio instance on the fake paced at `pacing`, and a customer's key. */
async function pacedTwilio(
  pacing: Record<string, number>,
): Promise<{ t: TestApp; fake: FakeTwilio; instance: Instance; key: string }> {
  const fake = new FakeTwilio({ stepMs: 5 });
  await fake.start();
  onTestFinished(() => fake.stop());
  const { t } = await buildListeningApp();
  const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
    name: 'twilio',
    provider: 'twilio',
    channels: ['sms'],
    config: {
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiBaseUrl: fake.baseUrl,
      lookupBaseUrl: fake.baseUrl,
      pacing,
    },
  });
  fake.addNumber(NUMBER, instance.ingressUrl);
  const customer = await adminPost<{ id: string }>(t.app, '/admin/v1/customers', { name: 'Acme' });
  const { key } = await adminPost<{ key: string }>(
    t.app,
    `/admin/v1/customers/${customer.id}/api-keys`,
  );
  await assignNumber(t.app, customer.id, {
    phoneNumber: NUMBER,
    instanceId: instance.id,
    isDefault: true,
  });
  return { t, fake, instance, key };
}

describe('jittered pacing through HTTP', () => {
  it('spaces a burst by random gaps inside the rate (Twilio’s default jitter, ±50 %)', async () => {
    const { t, fake, key } = await pacedTwilio({ perSecond: PER_SECOND, concurrency: 1 });
    for (let index = 0; index < SENDS; index += 1) {
      expectSuccess(
        await t.app.inject({
          method: 'POST',
          url: '/v1/messages',
          headers: bearer(key),
          payload: {
            to: CONTACT,
            content: { text: `m${index}` },
            routing: { preference: ['sms'] },
          },
        }),
        202,
      );
    }
    await waitFor(() => (fake.sent().length >= SENDS ? true : undefined), 25_000, 'every send');
    const sent = fake.sent();
    expect(sent.map((message) => message.body).sort()).toEqual(
      Array.from({ length: SENDS }, (_, index) => `m${index}`).sort(),
    );
    const times = sent.map((message) => message.extra.createdAt).sort((a, b) => a - b);
    const gaps = times.slice(1).map((time, index) => time - (times[index] as number));
    // Never closer than the shortest gap the jitter draws (half the interval), less the path…
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(INTERVAL_MS / 2 - PATH_TOLERANCE_MS);
    // …never a fixed interval: nine draws in [250, 750] ms all within 100 ms of each other
    // happen less than once in 10⁴ runs; a fixed interval's gaps always do…
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(100);
    // …and never faster than the rate on average (nine draws average above 60 % of the interval
    // in all but about one run in 10⁵; a loaded machine only makes them slower).
    const mean = ((times.at(-1) as number) - (times[0] as number)) / gaps.length;
    expect(mean).toBeGreaterThan(INTERVAL_MS * 0.6);
  }, 45_000);

  it('takes a jitter from 0 to 1 in the instance’s pacing and refuses one outside it', async () => {
    const { t, instance } = await pacedTwilio({ perSecond: PER_SECOND, jitter: 0.2 });
    expect(instance.config).toMatchObject({ pacing: { perSecond: PER_SECOND, jitter: 0.2 } });
    for (const jitter of [-0.1, 1.5]) {
      const body = expectFailure(
        await t.app.inject({
          method: 'PATCH',
          url: `/admin/v1/instances/${instance.id}`,
          headers: adminHeaders,
          payload: { config: { pacing: { perSecond: PER_SECOND, jitter } } },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(JSON.stringify(body)).toContain('config.pacing.jitter');
    }
  });
});
