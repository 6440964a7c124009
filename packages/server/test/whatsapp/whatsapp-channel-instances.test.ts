import type {
  CreatedGroup,
  Instance,
  Message,
  PairingCode,
  SignupCodes,
  WhatsAppCheckResult,
  WhatsAppSession,
} from '@switchboard/contract';
import type { FakeWhatsAppNetwork } from '@switchboard/provider-baileys/fake-socket';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customerHelpers, eventually, type TestCustomer } from '../chats/chat-test-app';
import { adminPost, createCustomerWithKey } from '../support/admin-helpers';
import {
  fakeWhatsApp,
  fakeWhatsAppGateway,
  whatsAppPath as pathOf,
  sessionIn,
} from '../support/fake-whatsapp-gateway';
import type { TestApp } from '../support/test-app';

/** The customer's number: iMessage and SMS on the simulator, WhatsApp lent to Baileys. */
const MIXED = '+14155550180';
/** A second such number, paired by code. */
const SECOND = '+14155550181';
const CONTACT = '+14155550182';
const MEMBER = '+14155550183';

describe('a number whose WhatsApp is lent to a Baileys instance (channelInstances.whatsapp)', () => {
  let t: TestApp;
  let network: FakeWhatsAppNetwork;
  let acme: TestCustomer;

  beforeEach(async () => {
    network = fakeWhatsApp([
      { phoneNumber: MIXED, lid: '90000000000180@lid' },
      { phoneNumber: SECOND, lid: '90000000000181@lid' },
      { phoneNumber: CONTACT, lid: '90000000000182@lid' },
      { phoneNumber: MEMBER, lid: '90000000000183@lid' },
    ]);
    t = await fakeWhatsAppGateway(network);
    const mac = await adminPost<Instance>(t.app, '/admin/v1/instances', {
      name: 'mac',
      provider: 'simulator',
      channels: ['imessage', 'sms'],
      config: { stepMs: 0 },
    });
    const baileys = await adminPost<Instance>(t.app, '/admin/v1/instances', {
      name: 'whatsapp',
      provider: 'baileys',
      channels: ['whatsapp'],
      config: { pacing: { perSecond: 0, concurrency: 4 } },
    });
    const { customer, key } = await createCustomerWithKey(t.app, 'Acme');
    for (const [phoneNumber, isDefault] of [
      [MIXED, true],
      [SECOND, false],
    ] as const) {
      await adminPost(t.app, `/admin/v1/customers/${customer.id}/numbers`, {
        phoneNumber,
        instanceId: mac.id,
        isDefault,
        channelInstances: { whatsapp: baileys.id },
      });
    }
    acme = customerHelpers(t, customer.id, key);
  });

  afterEach(async () => {
    await t.close();
  });

  it('pairs by QR, checks, sends, creates a group and sends into it, disconnects and deletes through the lent instance', async () => {
    await acme.ok('POST', `${pathOf(MIXED)}/enable`);
    await sessionIn(acme, MIXED, 'qr_pending');
    expect((await acme.ok<{ qrCode: string }>('GET', `${pathOf(MIXED)}/qr`)).qrCode).toMatch(/^2@/);
    await network.scanQr(MIXED);
    const connected = await sessionIn(acme, MIXED, 'connected');
    expect(connected.jid).toBe('14155550180@s.whatsapp.net');
    const listed = await acme.ok<WhatsAppSession[]>('GET', '/v1/whatsapp');
    expect(listed.find((s) => s.phoneNumber === MIXED)?.whatsapp.status).toBe('connected');

    const check = await acme.ok<WhatsAppCheckResult>(
      'GET',
      `${pathOf(MIXED)}/check?phone=${encodeURIComponent(CONTACT)}`,
    );
    expect(check).toMatchObject({ phone: CONTACT, onWhatsApp: true });

    const accepted = await acme.ok<{ id: string }>(
      'POST',
      '/v1/messages',
      {
        to: CONTACT,
        content: { text: 'Hello on WhatsApp' },
        routing: { preference: ['whatsapp'] },
      },
      202,
    );
    const sent = await eventually(async () => {
      const message = await acme.ok<Message>('GET', `/v1/messages/${accepted.id}`);
      return ['delivered', 'read', 'failed'].includes(message.status) ? message : undefined;
    });
    expect(sent).toMatchObject({ channel: 'whatsapp', errorCode: null });
    expect(['delivered', 'read']).toContain(sent.status);

    const group = await acme.ok<CreatedGroup>(
      'POST',
      '/v1/chats/groups',
      { channel: 'whatsapp', name: 'Ops', participants: [MEMBER], from: MIXED },
      201,
    );
    expect(group.chatId).toMatch(/@g\.us$/);
    const intoGroup = await acme.ok<{ id: string }>(
      'POST',
      '/v1/messages',
      { chatId: group.conversationId, from: MIXED, content: { text: 'Welcome' } },
      202,
    );
    await eventually(async () => {
      const message = await acme.ok<Message>('GET', `/v1/messages/${intoGroup.id}`);
      return ['delivered', 'read', 'sent'].includes(message.status) ? message : undefined;
    });

    const signup = await acme.ok<SignupCodes>('GET', `${pathOf(MIXED)}/signup-codes`);
    expect(signup.codes).toEqual([]);

    await acme.ok('POST', `${pathOf(MIXED)}/disconnect`);
    await sessionIn(acme, MIXED, 'disconnected');
    expect(await acme.ok('DELETE', pathOf(MIXED))).toEqual({ phoneNumber: MIXED, deleted: true });
    await sessionIn(acme, MIXED, 'not_enabled');
  });

  it('pairs by an 8-character code through the lent instance', async () => {
    const { pairingCode } = await acme.ok<PairingCode>('POST', `${pathOf(SECOND)}/pairing-code`);
    expect(pairingCode).toMatch(/^[A-Z0-9]{8}$/);
    await network.enterPairingCode(pairingCode);
    const connected = await sessionIn(acme, SECOND, 'connected');
    expect(connected.jid).toBe('14155550181@s.whatsapp.net');
  });
});
