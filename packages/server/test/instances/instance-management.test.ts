import type { Instance } from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SimulatorProvider } from '../../src/providers/simulator/simulator-provider';
import { adminHeaders, assignNumber, createCustomer } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildSimulatorTestApp } from '../support/simulator-app';

const TWILIO = {
  accountSid: `AC${'0'.repeat(32)}`,
  authToken: 'f'.repeat(24) + 'tok1'.repeat(2),
};

function admin(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
}

async function create(app: FastifyInstance, payload: object): Promise<Instance> {
  return expectSuccess<Instance>(await admin(app, 'POST', '/admin/v1/instances', payload), 201);
}

describe('provider instances in the operator API', () => {
  it('validates each provider’s config at create time, naming the field', async () => {
    const { app } = await buildSimulatorTestApp();
    const cases: Array<[object, string]> = [
      [
        { name: 'bb', provider: 'bluebubbles', config: { serverUrl: 'not a url', password: 'x' } },
        'config.serverUrl',
      ],
      [
        { name: 'bb', provider: 'bluebubbles', config: { serverUrl: 'https://mac.test' } },
        'config.password',
      ],
      [
        { name: 'tw', provider: 'twilio', config: { ...TWILIO, accountSid: 'AC1' } },
        'config.accountSid',
      ],
      [
        { name: 'tw', provider: 'twilio', config: { ...TWILIO, apiKeySid: `SK${'1'.repeat(32)}` } },
        'config.apiKeySecret',
      ],
      [{ name: 'tw', provider: 'twilio', channels: ['imessage'], config: TWILIO }, 'channels'],
      [{ name: 'wa', provider: 'baileys', config: { version: [2, 3000] } }, 'config.version'],
      [{ name: 'sim', provider: 'simulator', config: { stepMs: -1 } }, 'config.stepMs'],
      [
        { name: 'sim', provider: 'simulator', config: { pacing: { perSecond: -1 } } },
        'config.pacing.perSecond',
      ],
      [{ name: 'x', provider: 'carrier-pigeon' }, 'provider'],
    ];
    for (const [payload, field] of cases) {
      const body = expectFailure(
        await admin(app, 'POST', '/admin/v1/instances', payload),
        400,
        'VALIDATION_ERROR',
      );
      expect(body.error.message, JSON.stringify(payload)).toContain(field);
    }
    expectSuccess(await admin(app, 'GET', '/admin/v1/instances'));
    expect(expectSuccess<Instance[]>(await admin(app, 'GET', '/admin/v1/instances'))).toEqual([]);
  });

  it('answers secrets masked everywhere, and defaults the channels to the provider’s', async () => {
    const { app } = await buildSimulatorTestApp();
    const twilio = await create(app, {
      name: 'tw',
      provider: 'twilio',
      config: TWILIO,
      enabled: false,
    });
    expect(twilio.channels).toEqual(['sms']);
    expect(twilio.config).toEqual({ accountSid: TWILIO.accountSid, authToken: '****tok1' });
    const bb = await create(app, {
      name: 'mac',
      provider: 'bluebubbles',
      enabled: false,
      config: { serverUrl: 'http://127.0.0.1:1234', password: 'short' },
    });
    expect(bb.config).toEqual({ serverUrl: 'http://127.0.0.1:1234', password: '****' });
    for (const url of [
      '/admin/v1/instances',
      `/admin/v1/instances/${twilio.id}`,
      `/admin/v1/instances/${bb.id}`,
    ]) {
      const response = await admin(app, 'GET', url);
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(TWILIO.authToken);
      expect(response.body).not.toContain('"short"');
    }
    expectFailure(
      await admin(app, 'GET', '/admin/v1/instances/0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f'),
      404,
      'NOT_FOUND',
    );
    expectFailure(await admin(app, 'GET', '/admin/v1/instances/nope'), 400, 'VALIDATION_ERROR');
  });

  it('merges a partial config, keeps a secret sent back masked, and validates the result', async () => {
    const { app } = await buildSimulatorTestApp();
    const tw = await create(app, {
      name: 'tw',
      provider: 'twilio',
      config: TWILIO,
      enabled: false,
    });
    const patch = (payload: object) => admin(app, 'PATCH', `/admin/v1/instances/${tw.id}`, payload);

    const updated = expectSuccess<Instance>(
      await patch({
        config: { ...tw.config, lookup: true, messagingServiceSid: `MG${'a'.repeat(32)}` },
      }),
    );
    expect(updated.config).toEqual({
      ...tw.config,
      lookup: true,
      messagingServiceSid: `MG${'a'.repeat(32)}`,
    });
    const stored = await app.store.instances.findById(tw.id);
    expect(stored?.config.authToken).toBe(TWILIO.authToken);

    const removed = expectSuccess<Instance>(await patch({ config: { messagingServiceSid: null } }));
    expect(removed.config).not.toHaveProperty('messagingServiceSid');
    expectFailure(await patch({ config: { authToken: null } }), 400, 'VALIDATION_ERROR');
    expectFailure(await patch({ config: { lookup: 'yes' } }), 400, 'VALIDATION_ERROR');
    expectFailure(await patch({ channels: ['whatsapp'] }), 400, 'VALIDATION_ERROR');
    expectFailure(await patch({}), 400, 'VALIDATION_ERROR');
    await create(app, { name: 'other', provider: 'simulator' });
    expectFailure(await patch({ name: 'other' }), 409, 'ALREADY_EXISTS');
    const renamed = expectSuccess<Instance>(await patch({ name: 'twilio-main' }));
    expect(renamed.name).toBe('twilio-main');
    expect((await app.store.instances.findById(tw.id))?.config.authToken).toBe(TWILIO.authToken);
  });

  it('restarts only the changed instance, live, with its new config', async () => {
    const { app } = await buildSimulatorTestApp();
    const a = await create(app, { name: 'a', provider: 'simulator', config: { stepMs: 5 } });
    const b = await create(app, { name: 'b', provider: 'simulator' });
    const providerOf = (id: string) =>
      app.services.providers.provider(id) as Promise<SimulatorProvider>;
    const a1 = await providerOf(a.id);
    const b1 = await providerOf(b.id);

    expectSuccess(
      await admin(app, 'PATCH', `/admin/v1/instances/${a.id}`, { config: { stepMs: 7 } }),
    );
    const a2 = await providerOf(a.id);
    expect(a2).not.toBe(a1);
    expect(await providerOf(b.id)).toBe(b1);

    // A rename changes nothing that runs.
    expectSuccess(await admin(app, 'PATCH', `/admin/v1/instances/${a.id}`, { name: 'a2' }));
    expect(await providerOf(a.id)).toBe(a2);

    const disabled = expectSuccess<Instance>(
      await admin(app, 'PATCH', `/admin/v1/instances/${a.id}`, { enabled: false }),
    );
    expect(disabled.enabled).toBe(false);
    await expect(providerOf(a.id)).rejects.toThrow(/disabled/);
    expectSuccess(await admin(app, 'PATCH', `/admin/v1/instances/${a.id}`, { enabled: true }));
    expect(await providerOf(a.id)).not.toBe(a2);
  });

  it('picks up a change made below the API (the CLI) on its next sync', async () => {
    const { app } = await buildSimulatorTestApp();
    const a = await create(app, { name: 'a', provider: 'simulator' });
    const before = await app.services.providers.provider(a.id);
    await app.store.instances.update(a.id, {
      config: { stepMs: 3 },
      updatedAt: new Date(Date.now() + 1000),
    });
    await app.services.providers.sync();
    expect(await app.services.providers.provider(a.id)).not.toBe(before);
  });

  it('rotates the ingress token: a new URL, the old one refused', async () => {
    const { app } = await buildSimulatorTestApp();
    const a = await create(app, { name: 'a', provider: 'simulator' });
    const rotated = expectSuccess<Instance>(
      await admin(app, 'POST', `/admin/v1/instances/${a.id}/rotate-ingress-token`),
    );
    expect(rotated.ingressUrl).not.toBe(a.ingressUrl);
    const path = (url: string) => new URL(url).pathname;
    const call = (url: string) =>
      app.inject({
        method: 'POST',
        url: path(url),
        payload: { id: 'u1', type: 'message.status', externalId: 'x', status: 'sent' },
      });
    expectFailure(await call(a.ingressUrl), 404, 'NOT_FOUND');
    expect((await call(rotated.ingressUrl)).statusCode).toBe(200);
  });

  it('refuses to delete an instance numbers use, unless forced; a deleted one is gone', async () => {
    const { app } = await buildSimulatorTestApp();
    const a = await create(app, { name: 'a', provider: 'simulator' });
    const customer = await createCustomer(app);
    await assignNumber(app, customer.id, { phoneNumber: '+14155550100', instanceId: a.id });
    const refused = expectFailure(
      await admin(app, 'DELETE', `/admin/v1/instances/${a.id}`),
      409,
      'INSTANCE_IN_USE',
    );
    expect(refused.error.message).toContain('+14155550100');
    expect(
      expectSuccess(await admin(app, 'DELETE', `/admin/v1/instances/${a.id}?force=true`)),
    ).toEqual({ id: a.id, deleted: true, releasedNumbers: ['+14155550100'] });
    expectFailure(await admin(app, 'GET', `/admin/v1/instances/${a.id}`), 404, 'NOT_FOUND');
    expectFailure(await admin(app, 'DELETE', `/admin/v1/instances/${a.id}`), 404, 'NOT_FOUND');
    expect(expectSuccess<Instance[]>(await admin(app, 'GET', '/admin/v1/instances'))).toEqual([]);
    expect(
      expectSuccess<unknown[]>(
        await admin(app, 'GET', `/admin/v1/customers/${customer.id}/numbers`),
      ),
    ).toEqual([]);
    // The name is free again.
    await create(app, { name: 'a', provider: 'simulator' });
  });
});
