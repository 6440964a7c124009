import type {
  Instance,
  PairingCode,
  QrCode,
  SwitchboardEvent,
  WhatsAppCheckResult,
  WhatsAppSession,
  WhatsAppSessionState,
  WhatsAppStatusData,
} from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  buildChatApp,
  type ChatTestApp,
  customerHelpers,
  eventually,
  expectFailure,
  OWN_NUMBER,
  SECOND_NUMBER,
  type TestCustomer,
} from '../chats/chat-test-app';
import { observe } from '../inbound/observers';
import { adminHeaders, createInstance } from '../support/admin-helpers';
import { bodyOf, buildTestApp, tempDir } from '../support/test-app';

const WA_NUMBER = '+14155550120';
const NUMBER_PATH = `/v1/whatsapp/numbers/${WA_NUMBER.slice(1)}`;
const SANDBOX_PATH = `/v1/sandbox/whatsapp/numbers/${encodeURIComponent(WA_NUMBER)}`;

/** A simulator instance with real (short) steps, so a pairing can be watched step by step. */
async function pairingInstance(
  app: FastifyInstance,
  config: Record<string, number> = { stepMs: 2, qrRotationSteps: 10_000 },
): Promise<Instance> {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/v1/instances',
    headers: adminHeaders,
    payload: {
      name: `wa-${Object.values(config).join('-')}`,
      provider: 'simulator',
      channels: ['whatsapp'],
      config,
    },
  });
  return bodyOf<{ data: Instance }>(response).data;
}

/** The `whatsapp.status` data the customer received, in order. */
function statusesOf(events: readonly SwitchboardEvent[]): WhatsAppStatusData[] {
  return events.flatMap((event) => (event.type === 'whatsapp.status' ? [event.data] : []));
}

/** Waits until the stream shows `count` whatsapp.status events. */
function streamed(
  events: readonly SwitchboardEvent[],
  count: number,
): Promise<WhatsAppStatusData[]> {
  return eventually(() => {
    const statuses = statusesOf(events);
    return statuses.length >= count ? statuses : undefined;
  });
}

async function waCustomer(t: ChatTestApp, config?: Record<string, number>): Promise<TestCustomer> {
  const instance = await pairingInstance(t.app, config);
  return t.addCustomer('Wa', WA_NUMBER, instance.id);
}

describe('a WhatsApp pairing', () => {
  it('goes from not_enabled to connected and back, every step on the stream', async () => {
    const t = await buildChatApp();
    const wa = await waCustomer(t);
    const observed = await observe(t.app, wa);
    const stream = observed.stream;

    expect(await wa.ok<WhatsAppSession[]>('GET', '/v1/whatsapp')).toEqual([
      { phoneNumber: WA_NUMBER, whatsapp: { status: 'not_enabled' } },
    ]);
    expect(await wa.ok('GET', `${NUMBER_PATH}/status`)).toEqual({ status: 'not_enabled' });
    expectFailure(await wa.request('GET', `${NUMBER_PATH}/qr`), 400, 'INVALID_STATUS');

    // enable → connecting → qr_pending
    const enabled = await wa.ok<WhatsAppSession>('POST', `${NUMBER_PATH}/enable`);
    expect(enabled.phoneNumber).toBe(WA_NUMBER);
    expect(['connecting', 'qr_pending']).toContain(enabled.whatsapp.status);
    let statuses = await streamed(stream, 2);
    expect(statuses[0]).toEqual({
      phoneNumber: WA_NUMBER,
      status: 'connecting',
      customerId: wa.customerId,
    });
    expect(statuses[1]).toEqual({
      phoneNumber: WA_NUMBER,
      status: 'qr_pending',
      qrCode: expect.stringMatching(/^2@/),
      customerId: wa.customerId,
    });
    const qr = await wa.ok<QrCode>('GET', `${NUMBER_PATH}/qr`);
    expect(qr.qrCode).toBe(statuses[1]?.qrCode);
    expect(await wa.ok<WhatsAppSessionState>('GET', `${NUMBER_PATH}/status`)).toEqual({
      status: 'qr_pending',
    });
    expectFailure(
      await wa.request('GET', `${NUMBER_PATH}/check?phone=%2B14155550160`),
      400,
      'INVALID_STATUS',
    );

    // The phone scans the QR: connecting → connected.
    await wa.ok('POST', `${SANDBOX_PATH}/scan`);
    statuses = await streamed(stream, 4);
    expect(statuses.slice(2).map((s) => s.status)).toEqual(['connecting', 'connected']);
    expect(statuses[3]?.jid).toBe('14155550120@s.whatsapp.net');
    const connected = await wa.ok<WhatsAppSessionState>('GET', `${NUMBER_PATH}/status`);
    expect(connected).toEqual({
      status: 'connected',
      jid: '14155550120@s.whatsapp.net',
      lastConnectedAt: '2026-01-15T12:00:00.000Z',
    });
    expectFailure(await wa.request('GET', `${NUMBER_PATH}/qr`), 400, 'INVALID_STATUS');
    expectFailure(await wa.request('POST', `${NUMBER_PATH}/pairing-code`), 400, 'INVALID_STATUS');

    // Recipient checks through the connected session.
    expect(
      await wa.ok<WhatsAppCheckResult>('GET', `${NUMBER_PATH}/check?phone=%2B14155550160`),
    ).toEqual({
      phone: '+14155550160',
      onWhatsApp: true,
      jid: '14155550160@s.whatsapp.net',
    });
    expect(
      await wa.ok<WhatsAppCheckResult>('GET', `${NUMBER_PATH}/check?phone=%2B14155550105`),
    ).toEqual({
      phone: '+14155550105',
      onWhatsApp: false,
    });
    expectFailure(
      await wa.request('GET', `${NUMBER_PATH}/check?phone=4155550105`),
      400,
      'INVALID_PHONE_NUMBER',
    );

    // disconnect keeps the credentials: enable reconnects without a QR.
    t.clock.advance(60_000);
    const disconnected = await wa.ok<WhatsAppSession>('POST', `${NUMBER_PATH}/disconnect`);
    expect(disconnected.whatsapp).toEqual({
      status: 'disconnected',
      jid: '14155550120@s.whatsapp.net',
      lastConnectedAt: '2026-01-15T12:00:00.000Z',
      lastDisconnectedAt: '2026-01-15T12:01:00.000Z',
      disconnectReason: 'disconnected_by_api',
    });
    await wa.ok('POST', `${NUMBER_PATH}/disconnect`);
    statuses = await streamed(stream, 5);
    expect(statuses[4]).toEqual({
      phoneNumber: WA_NUMBER,
      status: 'disconnected',
      disconnectReason: 'disconnected_by_api',
      customerId: wa.customerId,
    });
    await wa.ok('POST', `${NUMBER_PATH}/enable`);
    statuses = await streamed(stream, 7);
    expect(statuses.slice(5).map((s) => s.status)).toEqual(['connecting', 'connected']);

    // delete wipes the credentials: the next pairing starts with a fresh QR.
    expect(await wa.ok('DELETE', NUMBER_PATH)).toEqual({ phoneNumber: WA_NUMBER, deleted: true });
    statuses = await streamed(stream, 8);
    expect(statuses[7]).toEqual({
      phoneNumber: WA_NUMBER,
      status: 'not_enabled',
      customerId: wa.customerId,
    });
    expect(await wa.ok('GET', `${NUMBER_PATH}/status`)).toEqual({ status: 'not_enabled' });
    expect(await wa.ok('DELETE', NUMBER_PATH)).toEqual({ phoneNumber: WA_NUMBER, deleted: true });
    await wa.ok('POST', `${NUMBER_PATH}/enable`);
    statuses = await streamed(stream, 10);
    expect(statuses.slice(8).map((s) => s.status)).toEqual(['connecting', 'qr_pending']);
    expect(statuses[9]?.qrCode).not.toBe(statuses[1]?.qrCode);

    // Stream only: no webhook ever got a whatsapp.status.
    expect(observed.webhook().some((event) => event.type === 'whatsapp.status')).toBe(false);
    expect(statusesOf(stream)).toHaveLength(10);
  });

  it('can use an 8-character pairing code instead of the QR, also for another device', async () => {
    const t = await buildChatApp();
    const wa = await waCustomer(t);
    const observed = await observe(t.app, wa);
    const { pairingCode } = await wa.ok<PairingCode>('POST', `${NUMBER_PATH}/pairing-code`, {
      phoneNumber: '+14155550169',
    });
    expect(pairingCode).toMatch(/^[A-Z0-9]{8}$/);
    expectFailure(
      await wa.request('POST', `${SANDBOX_PATH}/pairing-code`, { code: 'WRONG123' }),
      400,
      'VALIDATION_ERROR',
    );
    const typed = `${pairingCode.slice(0, 4).toLowerCase()}-${pairingCode.slice(4)}`;
    await wa.ok('POST', `${SANDBOX_PATH}/pairing-code`, { code: typed });
    const connected = await eventually(() =>
      statusesOf(observed.stream).find((s) => s.status === 'connected'),
    );
    expect(connected.jid).toBe('14155550169@s.whatsapp.net');
  });

  it('refreshes the QR code as the provider rotates it, then gives up', async () => {
    const t = await buildChatApp();
    const wa = await waCustomer(t, { stepMs: 2, qrRotationSteps: 3, qrMaxRotations: 3 });
    const observed = await observe(t.app, wa);
    await wa.ok('POST', `${NUMBER_PATH}/enable`);
    const statuses = await eventually(() => {
      const all = statusesOf(observed.stream);
      return all.some((s) => s.status === 'disconnected') ? all : undefined;
    });
    const codes = statuses.filter((s) => s.status === 'qr_pending').map((s) => s.qrCode);
    expect(codes).toHaveLength(3);
    expect(new Set(codes).size).toBe(3);
    expect(statuses.at(-1)).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'qr_timeout',
    });
  });

  it('reports dropped connections; logged_out unlinks the device', async () => {
    const t = await buildChatApp();
    const wa = await waCustomer(t);
    const observed = await observe(t.app, wa);
    await wa.ok('POST', `${NUMBER_PATH}/enable`);
    await eventually(() => statusesOf(observed.stream).find((s) => s.status === 'qr_pending'));
    await wa.ok('POST', `${SANDBOX_PATH}/scan`);
    await eventually(() => statusesOf(observed.stream).find((s) => s.status === 'connected'));
    const dropped = await wa.ok<WhatsAppSession>('POST', `${SANDBOX_PATH}/drop`);
    expect(dropped.whatsapp).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'connection_lost',
    });
    expectFailure(await wa.request('POST', `${SANDBOX_PATH}/drop`), 400, 'INVALID_STATUS');

    await wa.ok('POST', `${NUMBER_PATH}/enable`);
    await eventually(() =>
      statusesOf(observed.stream).filter((s) => s.status === 'connected').length === 2
        ? true
        : undefined,
    );
    await wa.ok('POST', `${SANDBOX_PATH}/drop`, { reason: 'logged_out' });
    await wa.ok('POST', `${NUMBER_PATH}/enable`);
    const last = await eventually(() => {
      const all = statusesOf(observed.stream);
      return all.at(-1)?.status === 'qr_pending' ? all.at(-1) : undefined;
    });
    expect(last.qrCode).toMatch(/^2@/);
  });

  it('reconnects sessions stored as connected after a restart, without a QR', async () => {
    const dir = tempDir();
    const first = await buildChatApp({ dir });
    const wa = await waCustomer(first);
    await wa.ok('POST', `${NUMBER_PATH}/enable`);
    await waitForStatus(wa, 'qr_pending');
    await wa.ok('POST', `${SANDBOX_PATH}/scan`);
    await waitForStatus(wa, 'connected');
    await first.close();

    const second = await buildTestApp({
      dir,
      env: { SIMULATOR_STEP_MS: '0', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    second.clock.advance(5 * 60_000);
    const again = customerHelpers(second, wa.customerId, wa.key);
    await waitForStatus(again, 'connected');
    const state = await again.ok<WhatsAppSessionState>('GET', `${NUMBER_PATH}/status`);
    expect(state).toMatchObject({ status: 'connected', jid: '14155550120@s.whatsapp.net' });
  });
});

async function waitForStatus(customer: TestCustomer, status: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await customer.ok<WhatsAppSessionState>('GET', `${NUMBER_PATH}/status`);
    if (state.status === status) return;
    if (Date.now() > deadline) throw new Error(`session stayed ${state.status}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('WhatsApp session routes', () => {
  it('accept the number with or without +, and refuse numbers that are not the customer’s', async () => {
    const t = await buildChatApp();
    const other = await t.addCustomer('Other', '+14155550180');
    for (const path of [
      `/v1/whatsapp/numbers/${encodeURIComponent(OWN_NUMBER)}/status`,
      `/v1/whatsapp/numbers/${OWN_NUMBER.slice(1)}/status`,
    ]) {
      expect(await t.acme.ok('GET', path)).toEqual({ status: 'not_enabled' });
    }
    expect(
      (await t.acme.ok<WhatsAppSession[]>('GET', '/v1/whatsapp')).map((s) => s.phoneNumber),
    ).toEqual([OWN_NUMBER, SECOND_NUMBER]);
    const foreign = `/v1/whatsapp/numbers/${OWN_NUMBER.slice(1)}`;
    for (const [method, url] of [
      ['GET', `${foreign}/status`],
      ['POST', `${foreign}/enable`],
      ['GET', `${foreign}/qr`],
      ['POST', `${foreign}/pairing-code`],
      ['POST', `${foreign}/disconnect`],
      ['DELETE', foreign],
      ['GET', `${foreign}/check?phone=%2B14155550160`],
      ['GET', `${foreign}/signup-codes`],
    ] as const) {
      expectFailure(await other.request(method, url), 403, 'NUMBER_NOT_OWNED');
    }
    expectFailure(
      await t.acme.request('GET', '/v1/whatsapp/numbers/not-a-number/status'),
      400,
      'INVALID_PHONE_NUMBER',
    );
  });

  it('answer CHANNEL_NOT_SUPPORTED for a number whose instance has no WhatsApp', async () => {
    const t = await buildChatApp();
    const smsOnly = await createInstance(t.app, 'sms-only', ['sms']);
    const beta = await t.addCustomer('Beta', '+14155550170', smsOnly.id);
    expectFailure(
      await beta.request('POST', '/v1/whatsapp/numbers/14155550170/enable'),
      400,
      'CHANNEL_NOT_SUPPORTED',
    );
    expect(await beta.ok('GET', '/v1/whatsapp/numbers/14155550170/status')).toEqual({
      status: 'not_enabled',
    });
  });
});
