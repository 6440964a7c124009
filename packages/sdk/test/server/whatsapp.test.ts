import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Switchboard } from '../../src/index';
import { clientFor } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

const OWNED = '+14155550100';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({
    numbers: [OWNED, '+14155550101'],
    // Pairing gives up after 5 QR codes of 40 steps each: instant steps would end it at once.
    env: { SIMULATOR_STEP_MS: '25' },
  });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

/** Waits until the session of `phoneNumber` reaches `status`. */
async function reach(phoneNumber: string, status: string): Promise<void> {
  await expect.poll(async () => (await client.whatsapp.status(phoneNumber)).status).toBe(status);
}

describe('WhatsApp sessions against the real server', () => {
  it('pairs a number by QR code, checks recipients, disconnects and deletes the session', async () => {
    const sessions = await client.whatsapp.list();
    expect(sessions.map((s) => [s.phoneNumber, s.whatsapp.status])).toEqual([
      [OWNED, 'not_enabled'],
      ['+14155550101', 'not_enabled'],
    ]);

    const enabled = await client.whatsapp.enable(OWNED);
    expect(enabled.phoneNumber).toBe(OWNED);
    await reach(OWNED, 'qr_pending');
    const { qrCode } = await client.whatsapp.qr(OWNED);
    expect(qrCode).toMatch(/^2@/);

    await client.sandbox.whatsappScanQr(OWNED);
    await reach(OWNED, 'connected');
    // The leading + may be left out.
    expect((await client.whatsapp.status('14155550100')).jid).toBe('14155550100@s.whatsapp.net');

    // A connected session answers whether recipients are on WhatsApp.
    expect(await client.whatsapp.check(OWNED, { phone: '+12125550160' })).toMatchObject({
      onWhatsApp: true,
    });
    expect(await client.whatsapp.check(OWNED, { phone: '+12125550104' })).toMatchObject({
      onWhatsApp: false,
    });

    const disconnected = await client.whatsapp.disconnect(OWNED);
    expect(disconnected.whatsapp).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'disconnected_by_api',
    });

    await client.whatsapp.delete(OWNED);
    expect((await client.whatsapp.status(OWNED)).status).toBe('not_enabled');
  });

  it('hands out an 8-character pairing code while pairing', async () => {
    await client.whatsapp.enable('+14155550101');
    await reach('+14155550101', 'qr_pending');
    const { pairingCode } = await client.whatsapp.pairingCode('+14155550101');
    expect(pairingCode.replace('-', '')).toHaveLength(8);
  });

  it('lists the verification codes a number received', async () => {
    await client.sandbox.inboundMessage({
      channel: 'sms',
      from: '+12125550188',
      to: OWNED,
      text: 'Your WhatsApp code is 482-913. Do not share it.',
    });
    const { codes, windowMinutes } = await client.whatsapp.signupCodes(OWNED);
    expect(windowMinutes).toBe(15);
    expect(codes.map((c) => c.code)).toEqual([expect.stringMatching(/^482-?913$/)]);
  });
});
