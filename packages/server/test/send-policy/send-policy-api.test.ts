import type { InstanceSendPolicy, NumberSendPolicy } from '@switchboard/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { adminHeaders, createCustomerWithNumber } from '../support/admin-helpers';
import { cli } from '../support/cli-runner';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildUpstreamApp, UPSTREAM_NUMBER, type UpstreamApp } from '../support/simulated-upstream';
import { bearer } from '../support/test-app';

const START = Date.parse('2026-01-15T12:00:00Z');
const NUMBER_PATH = (customerId: string) =>
  `/admin/v1/customers/${customerId}/numbers/${encodeURIComponent(UPSTREAM_NUMBER)}/send-policy`;

let t: UpstreamApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('send policies through the operator API and the customer API', () => {
  it('sets a number and an instance policy, and shows what holds today with its counts', async () => {
    t = await buildUpstreamApp({ startAt: START });
    const u = t;
    const instance = expectSuccess<InstanceSendPolicy>(
      await u.app.inject({
        method: 'PUT',
        url: `/admin/v1/instances/${u.instance.id}/send-policy`,
        headers: adminHeaders,
        payload: { channels: { imessage: { coldContactDailyCap: 7 } } },
      }),
    );
    // The simulator reaches no real network: no built-in limits (real upstreams have them).
    expect(instance.defaults.whatsapp).toEqual({
      dailyCap: null,
      coldContactDailyCap: null,
      warmUpRamp: [],
    });
    const set = expectSuccess<NumberSendPolicy>(
      await u.app.inject({
        method: 'PUT',
        url: NUMBER_PATH(u.customerId),
        headers: adminHeaders,
        payload: { inUseSince: '2026-01-14', channels: { imessage: { warmUpRamp: [5, 9] } } },
      }),
    );
    const imessage = set.effective.find((entry) => entry.channel === 'imessage');
    expect(imessage).toMatchObject({
      coldContactDailyCap: 7,
      dailyCap: null,
      dayInUse: 2,
      warmUpCap: 9,
      todaysCap: 9,
      usage: { sends: 0, coldContacts: 0 },
      day: '2026-01-15',
      resetsAt: '2026-01-16T00:00:00.000Z',
      restricted: null,
    });
    // The customer reads its own number's policy (with or without the `+`), never another's.
    const own = expectSuccess<NumberSendPolicy>(
      await u.app.inject({
        method: 'GET',
        url: `/v1/numbers/${UPSTREAM_NUMBER.slice(1)}/send-policy`,
        headers: bearer(u.key),
      }),
    );
    expect(own.policy).toEqual({
      inUseSince: '2026-01-14',
      channels: { imessage: { warmUpRamp: [5, 9] } },
    });
    const other = await createCustomerWithNumber(u.app, 'Other', '+14155550177', u.instance.id);
    expectFailure(
      await u.app.inject({
        method: 'GET',
        url: `/v1/numbers/${encodeURIComponent(UPSTREAM_NUMBER)}/send-policy`,
        headers: bearer(other.key),
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a day in use after today, and logs the "already warm" override', async () => {
    t = await buildUpstreamApp({ startAt: START });
    const u = t;
    expectFailure(
      await u.app.inject({
        method: 'PUT',
        url: NUMBER_PATH(u.customerId),
        headers: adminHeaders,
        payload: { inUseSince: '2026-01-16' },
      }),
      400,
      'VALIDATION_ERROR',
    );
    const warm = expectSuccess<NumberSendPolicy>(
      await u.app.inject({
        method: 'PUT',
        url: NUMBER_PATH(u.customerId),
        headers: adminHeaders,
        payload: { alreadyWarm: true },
      }),
    );
    expect(warm.effective.every((entry) => entry.warmUpCap === null)).toBe(true);
    expect(u.logs.some((line) => String(line.msg).includes('already warm'))).toBe(true);
    expectFailure(
      await u.app.inject({
        method: 'GET',
        url: `/admin/v1/instances/00000000-0000-7000-8000-000000000000/send-policy`,
        headers: adminHeaders,
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('is set and shown by the CLI on the same database', async () => {
    // The CLI reads the system clock: the day in use must be today by it.
    t = await buildUpstreamApp({ store: 'sqlite', startAt: Date.now() });
    const env = { DATABASE_URL: t.databasePath };
    const policy = '{"alreadyWarm":true,"channels":{"whatsapp":{"dailyCap":40}}}';
    const set = await cli(
      ['send-policy', 'set', t.customerId, UPSTREAM_NUMBER, '--policy', policy],
      env,
      undefined,
      true,
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain('already warm');
    expect(set.stdout).toMatch(/whatsapp\s+0\/40/);
    const shown = await cli(
      ['--json', 'send-policy', 'show', t.customerId, UPSTREAM_NUMBER],
      env,
      undefined,
      true,
    );
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ policy: { alreadyWarm: true } });
    const refused = await cli(
      ['send-policy', 'set-instance', 'upstream', '--policy', '{"inUseSince":"2999-01-01"}'],
      env,
      undefined,
      true,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('inUseSince');
  });

  it('shows a pause of the delivery watchdog and resumes it from the CLI', async () => {
    t = await buildUpstreamApp({ store: 'sqlite', startAt: Date.now() });
    const env = { DATABASE_URL: t.databasePath };
    const number = await t.app.store.numbers.findByAddress(t.customerId, UPSTREAM_NUMBER);
    if (!number) throw new Error('no number');
    const since = Date.parse('2026-01-15T11:00:00Z');
    await t.app.store.sendPolicies.pause(number.id, 'imessage', 'deliveries stalling', since);
    const shown = await cli(
      ['send-policy', 'show', t.customerId, UPSTREAM_NUMBER],
      env,
      undefined,
      true,
    );
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/PAUSED/);
    expect(shown.stdout).toContain('since 2026-01-15T11:00:00.000Z');
    const refused = await cli(
      ['send-policy', 'resume', t.customerId, UPSTREAM_NUMBER, '--channel', 'telegram'],
      env,
      undefined,
      true,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('VALIDATION_ERROR');
    const resumed = await cli(
      ['--json', 'send-policy', 'resume', t.customerId, UPSTREAM_NUMBER, '--channel', 'imessage'],
      env,
      undefined,
      true,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const policy = JSON.parse(resumed.stdout) as NumberSendPolicy;
    expect(policy.effective.every((e) => e.paused === null)).toBe(true);
    expect(await t.app.store.sendPolicies.findPauses(number.id)).toMatchObject([
      { channel: 'imessage', pausedAt: null, resumedAt: expect.any(Number) },
    ]);
  });
});
