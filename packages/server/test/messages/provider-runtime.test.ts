import type { SenderNumber } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import type { SimulatorProvider } from '../../src/providers/simulator/simulator-provider';
import { adminHeaders, assignNumber } from '../support/admin-helpers';
import { bodyOf, tempDir } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { buildMessagingApp, errorCodeOf, reopenMessagingApp } from './messaging-fixture';

type App = Awaited<ReturnType<typeof buildMessagingApp>>;

async function simulatorOf(t: App): Promise<SimulatorProvider> {
  return (await t.app.services.providers.provider(t.instanceId)) as SimulatorProvider;
}

async function healthOf(t: App) {
  const response = await t.app.inject({ method: 'GET', url: '/health' });
  return bodyOf<{ checks: { imessage: { status: string; warnings?: string[] } } }>(response).checks
    .imessage;
}

async function numberHealth(t: App): Promise<string | undefined> {
  const numbers = bodyOf<{ data: SenderNumber[] }>(await t.request('GET', '/v1/numbers')).data;
  return numbers[0]?.healthStatus;
}

describe('the provider runtime', () => {
  it('checks every instance’s health on its interval; /health and GET /v1/numbers report it', async () => {
    const t = await buildMessagingApp({ env: { INSTANCE_HEALTH_INTERVAL_MS: '20' } });
    await waitFor(async () => (await healthOf(t)).status === 'healthy');
    expect(await numberHealth(t)).toBe('healthy');

    (await simulatorOf(t)).sandbox.setHealth({
      status: 'degraded',
      warnings: [{ code: 'private_api_disabled', message: 'Private API disabled' }],
    });
    await waitFor(async () => (await healthOf(t)).status === 'degraded');
    expect(await healthOf(t)).toEqual({
      status: 'degraded',
      warnings: ['simulator: Private API disabled'],
    });
    expect(await numberHealth(t)).toBe('degraded');

    (await simulatorOf(t)).sandbox.setHealth(null);
    await waitFor(async () => (await healthOf(t)).status === 'healthy');
    expect(await healthOf(t)).toEqual({ status: 'healthy' });
  });

  it('keeps what a provider stores in its state store across restarts', async () => {
    const dir = tempDir();
    // Steps long enough for the QR code to be seen before it rotates out (40 steps).
    const first = await buildMessagingApp({ dir, env: { SIMULATOR_STEP_MS: '5' } });
    const sessions = (await simulatorOf(first)).whatsappSessions;
    if (!sessions) throw new Error('the simulator serves whatsapp');
    const owned = '+14155550100';
    await sessions.enable(owned);
    await waitFor(async () => (await sessions.getSession(owned)).status === 'qr_pending');
    await (await simulatorOf(first)).sandbox.scanWhatsAppQr(owned);
    await waitFor(async () => (await sessions.getSession(owned)).status === 'connected');
    const stored = await first.app.store.providerState.keys(first.instanceId, '');
    expect(stored.length).toBeGreaterThan(0);
    await first.close();

    const second = await reopenMessagingApp(first);
    expect(await second.app.store.providerState.keys(second.instanceId, '')).toEqual(stored);
    const again = (await simulatorOf(second)).whatsappSessions;
    if (!again) throw new Error('the simulator serves whatsapp');
    // The credentials survived: enabling reconnects without a new QR code.
    await again.enable(owned);
    await waitFor(async () => (await again.getSession(owned)).status === 'connected');
  });

  it('records an instance that cannot be built as unhealthy, without its configuration details', async () => {
    const t = await buildMessagingApp({ env: { INSTANCE_HEALTH_INTERVAL_MS: '20' } });
    const create = (config: object) =>
      t.app.inject({
        method: 'POST',
        url: '/admin/v1/instances',
        headers: adminHeaders,
        payload: { name: 'broken', provider: 'simulator', channels: ['imessage'], config },
      });
    // A config the provider's schema refuses is a 400 naming the field, never a broken instance.
    const refused = await create({ bogus: 1 });
    expect(refused.statusCode).toBe(400);
    expect(errorCodeOf(refused)).toBe('VALIDATION_ERROR');
    expect(refused.body).toContain('config');
    // One stored before its schema tightened (written below the API) still cannot be built.
    const broken = bodyOf<{ data: { id: string } }>(await create({})).data;
    await t.app.store.instances.update(broken.id, { config: { bogus: 1 } });
    await t.app.services.providers.changed(broken.id);
    // Until its first check the new instance is `unknown`, which already reads as degraded.
    await waitFor(async () => (await healthOf(t)).warnings !== undefined);
    expect(await healthOf(t)).toEqual({
      status: 'degraded',
      warnings: ['broken: The instance "broken" is unavailable'],
    });

    await assignNumber(t.app, t.customerId, { phoneNumber: '+14155550174', instanceId: broken.id });
    const send = await t.send({
      to: '+14155550199',
      from: '+14155550174',
      content: { text: 'hi' },
    });
    expect(send.statusCode).toBe(500);
    expect(errorCodeOf(send)).toBe('INTERNAL_ERROR');
    expect(send.body).not.toContain('bogus');
  });
});
