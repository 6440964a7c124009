import type { CapabilityRecord } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { createCustomerWithKey } from '../support/admin-helpers';
import { bodyOf } from '../support/test-app';
import { buildMessagingApp, errorCodeOf, otherCustomer } from './messaging-fixture';

async function check(
  t: Awaited<ReturnType<typeof buildMessagingApp>>,
  number: string,
  key?: string,
) {
  const response = await t.request(
    'GET',
    `/v1/capabilities/${encodeURIComponent(number)}`,
    undefined,
    key,
  );
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<{ data: CapabilityRecord }>(response).data;
}

describe('GET /v1/capabilities/:phoneNumber', () => {
  it('answers the simulator table, with Focus mode and the recommended channel', async () => {
    const t = await buildMessagingApp();
    expect(await check(t, '+14155550152')).toEqual({
      phoneNumber: '+14155550152',
      capabilities: { imessage: true, sms: true, facetime: true, whatsapp: false },
      focused: true,
      focusMode: 'Do Not Disturb',
      recommendedChannel: 'imessage',
      lastChecked: '2026-01-15T12:00:00.000Z',
      cached: false,
    });
    const smsOnly = await check(t, '+14155550118');
    expect(smsOnly).toMatchObject({
      capabilities: { imessage: false, sms: true, facetime: false, whatsapp: false },
      focused: false,
      recommendedChannel: 'sms',
    });
    expect(smsOnly).not.toHaveProperty('focusMode');
    expect((await check(t, '+14155550164')).capabilities).toEqual({
      imessage: false,
      sms: true,
      facetime: false,
      whatsapp: true,
    });
    expect((await check(t, '+14155550145')).capabilities).toEqual({
      imessage: false,
      sms: false,
      facetime: false,
      whatsapp: false,
    });
  });

  it('serves repeats from the cache until the TTL runs out; each customer has its own cache', async () => {
    const t = await buildMessagingApp({ env: { CAPABILITY_CACHE_TTL_MS: '60000' } });
    const first = await check(t, '+14155550108');
    t.clock.advance(30_000);
    const hit = await check(t, '+14155550108');
    expect(hit).toEqual({ ...first, cached: true });

    const other = await otherCustomer(t.app, t.instanceId, '+14155550188');
    expect((await check(t, '+14155550108', other.key)).cached).toBe(false);

    t.clock.advance(30_000);
    const refreshed = await check(t, '+14155550108');
    expect(refreshed.cached).toBe(false);
    expect(refreshed.lastChecked).toBe('2026-01-15T12:01:00.000Z');
  });

  it('answers even for a customer without numbers, from the instances there are', async () => {
    const t = await buildMessagingApp();
    const { key } = await createCustomerWithKey(t.app, 'Fresh');
    expect((await check(t, '+14155550109', key)).capabilities.imessage).toBe(true);
  });

  it('answers 400 INVALID_PHONE_NUMBER for a value that is not E.164', async () => {
    const t = await buildMessagingApp();
    for (const value of ['0415555010', 'abc', '+1']) {
      const response = await t.request('GET', `/v1/capabilities/${value}`);
      expect(response.statusCode, value).toBe(400);
      expect(errorCodeOf(response)).toBe('INVALID_PHONE_NUMBER');
    }
  });
});
