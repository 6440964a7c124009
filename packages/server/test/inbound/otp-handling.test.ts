import type {
  Customer,
  MessageList,
  SandboxInboundMessageResult,
  SignupCodes,
} from '@switchboard/contract';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  buildChatApp,
  customerHelpers,
  expectFailure,
  OWN_NUMBER,
  SECOND_NUMBER,
} from '../chats/chat-test-app';
import { adminHeaders, assignNumber, createApiKey } from '../support/admin-helpers';
import { bodyOf } from '../support/test-app';
import { observe, ofType } from './observers';

const OTP_TEXT = 'Your WhatsApp code: 123-456. Don’t share this code with others.';
const SIGNUP_CODES = `/v1/whatsapp/numbers/${encodeURIComponent(OWN_NUMBER)}/signup-codes`;

describe('verification codes', () => {
  it('are suppressed by default: no event, not listed, not returned, only in the signup codes', async () => {
    const t = await buildChatApp({ store: 'sqlite' });
    const observed = await observe(t.app, t.acme);
    const otp = await t.acme.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'whatsapp',
        from: '+14155550166',
        to: OWN_NUMBER,
        text: OTP_TEXT,
      },
    );
    expect(otp).toMatchObject({ suppressed: true, otp: { code: '123456', provider: 'whatsapp' } });

    // A near miss right after it passes through, and proves the code's event never came.
    const order = await t.acme.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'sms',
        from: '+14155550111',
        to: OWN_NUMBER,
        text: 'Your order #123456 has shipped and arrives on 12/03.',
      },
    );
    expect(order).toMatchObject({ suppressed: false, otp: null });
    await observed.both(ofType('message.inbound', (e) => e.data.messageId === order.messageId));
    const inbound = [...observed.webhook(), ...observed.stream, ...t.acme.events];
    expect(
      inbound.some((e) => e.type === 'message.inbound' && e.data.messageId === otp.messageId),
    ).toBe(false);

    expectFailure(await t.acme.request('GET', `/v1/messages/${otp.messageId}`), 404, 'NOT_FOUND');
    const list = await t.acme.ok<MessageList>('GET', '/v1/messages');
    expect(list.messages.map((m) => m.id)).toEqual([order.messageId]);

    const codes = await t.acme.ok<SignupCodes>('GET', SIGNUP_CODES);
    expect(codes).toEqual({
      windowMinutes: 15,
      codes: [
        {
          code: '123456',
          messageId: otp.messageId,
          from: '+14155550166',
          channel: 'whatsapp',
          receivedAt: '2026-01-15T12:00:00.000Z',
        },
      ],
    });
    // The `+` is optional in the path; another number of the customer has its own codes.
    expect(await t.acme.ok<SignupCodes>('GET', SIGNUP_CODES.replace('%2B', ''))).toEqual(codes);
    expect(
      (
        await t.acme.ok<SignupCodes>(
          'GET',
          `/v1/whatsapp/numbers/${SECOND_NUMBER.slice(1)}/signup-codes`,
        )
      ).codes,
    ).toEqual([]);

    // Kept 15 minutes.
    t.clock.advance(14 * 60 * 1000);
    expect((await t.acme.ok<SignupCodes>('GET', SIGNUP_CODES)).codes).toHaveLength(1);
    t.clock.advance(60 * 1000 + 1);
    expect((await t.acme.ok<SignupCodes>('GET', SIGNUP_CODES)).codes).toEqual([]);
    // Nothing keeps the code afterwards: the suppressed message's text is erased too.
    const db = new Database(t.databasePath, { readonly: true });
    const stored = db
      .prepare('select text, deleted_at from messages where id = ?')
      .get(otp.messageId);
    db.close();
    expect(stored).toEqual({ text: '', deleted_at: expect.any(Number) });
  });

  it('lists codes newest first, on any channel, and only to the owner of the number', async () => {
    const t = await buildChatApp();
    for (const [channel, text] of [
      ['sms', 'G-482913 is your Google verification code.'],
      ['imessage', 'Your Apple ID Code is: 739204. Do not share it with anyone.'],
    ] as const) {
      await t.acme.ok('POST', '/v1/sandbox/inbound-messages', {
        channel,
        from: '+14155550167',
        to: OWN_NUMBER,
        text,
      });
      t.clock.advance(1000);
    }
    const codes = await t.acme.ok<SignupCodes>('GET', SIGNUP_CODES);
    expect(codes.codes.map((c) => [c.code, c.channel])).toEqual([
      ['739204', 'imessage'],
      ['482913', 'sms'],
    ]);
    const other = await t.addCustomer('Other', '+14155550180');
    expectFailure(await other.request('GET', SIGNUP_CODES), 403, 'NUMBER_NOT_OWNED');
    expectFailure(
      await t.acme.request('GET', '/v1/whatsapp/numbers/+14155550199/signup-codes'),
      403,
      'NUMBER_NOT_OWNED',
    );
  });

  it('are delivered with `otp` to a customer whose otpHandling is annotate', async () => {
    const t = await buildChatApp();
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/customers',
      headers: adminHeaders,
      payload: { name: 'Annotator', settings: { otpHandling: 'annotate' } },
    });
    const customer = bodyOf<{ data: Customer }>(created).data;
    const { key } = await createApiKey(t.app, customer.id);
    await assignNumber(t.app, customer.id, {
      phoneNumber: '+14155550190',
      instanceId: t.instanceId,
      isDefault: true,
    });
    const annotator = customerHelpers(t, customer.id, key);
    const observed = await observe(t.app, annotator);
    const result = await annotator.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      { channel: 'sms', from: '+14155550111', to: '+14155550190', text: OTP_TEXT },
    );
    expect(result.suppressed).toBe(false);
    const event = await observed.both(
      ofType('message.inbound', (e) => e.data.messageId === result.messageId),
    );
    expect(event.data.otp).toEqual({ code: '123456', provider: 'whatsapp' });
    expect(event.data.text).toBe(OTP_TEXT);
    await annotator.ok('GET', `/v1/messages/${result.messageId}`);
    const codes = await annotator.ok<SignupCodes>(
      'GET',
      '/v1/whatsapp/numbers/14155550190/signup-codes',
    );
    expect(codes.codes.map((c) => c.messageId)).toEqual([result.messageId]);
    // Acme never sees any of it.
    expect(t.acme.events).toEqual([]);
  });
});
