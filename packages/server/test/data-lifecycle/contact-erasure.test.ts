import type { ContactErasure, OptOutList } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import {
  buildChatApp,
  createGroup,
  IMESSAGE_CONTACT,
  OWN_NUMBER,
  WHATSAPP_CONTACT,
} from '../chats/chat-test-app';
import { adminHeaders, createCustomerWithNumber } from '../support/admin-helpers';
import { cli } from '../support/cli-runner';
import { searchDatabase } from '../support/database-search';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { TEST_ENCRYPTION_KEY } from '../support/postgres-database';
import { bearer } from '../support/test-app';

/** The contact to forget, and the forms it takes in stored rows. */
const CONTACT = '+14155550177';
const CONTACT_FORMS = ['14155550177', 'whatsapp:+14155550177', '14155550177@s.whatsapp.net'];

/** Builds a customer's history with the contact: every kind of row that can name it. */
async function historyWithContact() {
  const t = await buildChatApp();
  const { acme } = t;
  await acme.ok('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, 201);
  const sent = await acme.ok<{ id: string }>(
    'POST',
    '/v1/messages',
    { to: CONTACT, content: { text: 'the secret plan' }, callbackUrl: 'http://127.0.0.1:9/cb' },
    202,
  );
  await acme.ok('POST', '/v1/sandbox/inbound-messages', {
    channel: 'imessage',
    from: CONTACT,
    to: OWN_NUMBER,
    text: 'here is my photo',
    attachments: [
      { data: Buffer.from('photo of the contact').toString('base64'), filename: 'me.jpg' },
    ],
  });
  await acme.ok('POST', '/v1/sandbox/facetime/calls', { caller: CONTACT, to: OWN_NUMBER });
  await acme.ok('GET', `/v1/capabilities/${encodeURIComponent(CONTACT)}`);
  const group = await createGroup(acme, {
    channel: 'whatsapp',
    name: 'Ops',
    participants: [WHATSAPP_CONTACT, CONTACT],
  });
  await acme.ok('POST', '/v1/sandbox/inbound-messages', {
    channel: 'sms',
    from: CONTACT,
    to: OWN_NUMBER,
    text: 'STOP',
  });
  const kept = await acme.ok<{ messageId: string }>('POST', '/v1/sandbox/inbound-messages', {
    channel: 'imessage',
    from: IMESSAGE_CONTACT,
    to: OWN_NUMBER,
    text: 'keep me',
  });
  return { t, acme, sent, group, kept };
}

describe('forgetting a contact', () => {
  it('erases every row about the address, keeps the opt-out fact, and answers counts', async () => {
    const { t, acme, sent, kept } = await historyWithContact();
    expect((await searchDatabase(t, CONTACT_FORMS)).length).toBeGreaterThan(10);

    const erasure = await acme.ok<ContactErasure>(
      'POST',
      '/v1/contact-erasures',
      { address: '14155550177@s.whatsapp.net' },
      201,
    );
    expect(erasure).toMatchObject({
      id: expect.stringMatching(/^era_/),
      customerId: acme.customerId,
      addressHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      requestedBy: expect.stringMatching(/^api_key:/),
    });
    expect(erasure.counts.messages).toBeGreaterThanOrEqual(3);
    expect(erasure.counts.attachments).toBe(1);
    expect(erasure.counts.events).toBeGreaterThan(0);
    expect(erasure.counts.deliveries).toBeGreaterThan(0);
    expect(erasure.counts.faceTimeCalls).toBe(1);
    expect(erasure.counts.groupsLeft).toBe(1);

    // Nothing of the address is left, in any column of any table, but the opt-out fact.
    const left = await searchDatabase(t, CONTACT_FORMS);
    expect(left.map(({ table, column }) => `${table}.${column}`)).toEqual(['opt_outs.recipient']);
    expect(JSON.stringify(left)).not.toContain('secret plan');

    expectFailure(await acme.request('GET', `/v1/messages/${sent.id}`), 404, 'NOT_FOUND');
    await acme.ok('GET', `/v1/messages/${kept.messageId}`);
    const outs = await acme.ok<OptOutList>('GET', '/v1/opt-outs');
    expect(outs.optOuts.map((o) => o.recipient)).toEqual([CONTACT]);
    expectFailure(
      await acme.request('POST', '/v1/messages', { to: CONTACT, content: { text: 'hi' } }),
      403,
      'RECIPIENT_OPTED_OUT',
    );
    // The same contact in another form hashes the same; the list names the erasures.
    const again = await acme.ok<ContactErasure>(
      'POST',
      '/v1/contact-erasures',
      { address: CONTACT },
      201,
    );
    expect(again.addressHash).toBe(erasure.addressHash);
    expect(Object.values(again.counts).every((n) => n === 0)).toBe(true);
    const listed = await acme.ok<ContactErasure[]>('GET', '/v1/contact-erasures');
    expect(listed.map((e) => e.id)).toEqual([again.id, erasure.id]);
  }, 120_000);

  it('erases for one customer only, or across customers for the operator', async () => {
    const { t, acme } = await historyWithContact();
    const other = await createCustomerWithNumber(t.app, 'Globex', '+14155550190', t.instanceId);
    expectSuccess(
      await t.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: bearer(other.key),
        payload: { to: CONTACT, content: { text: 'globex says hi' } },
      }),
      202,
    );
    await acme.ok('POST', '/v1/contact-erasures', { address: CONTACT }, 201);
    const afterCustomer = await searchDatabase(t, ['globex says hi']);
    expect(afterCustomer.map((hit) => hit.table)).toContain('messages');

    const operator = expectSuccess<ContactErasure>(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/contact-erasures',
        headers: adminHeaders,
        payload: { address: CONTACT },
      }),
      201,
    );
    expect(operator).toMatchObject({ customerId: null, requestedBy: 'operator' });
    expect(operator.counts.messages).toBe(1);
    const left = await searchDatabase(t, CONTACT_FORMS);
    expect(left.map(({ table, column }) => `${table}.${column}`)).toEqual(['opt_outs.recipient']);
    const listed = expectSuccess<ContactErasure[]>(
      await t.app.inject({
        method: 'GET',
        url: '/admin/v1/contact-erasures',
        headers: adminHeaders,
      }),
    );
    expect(listed.map((e) => e.id)).toEqual([operator.id]);
  }, 120_000);

  it('is an operator command of the CLI too', async () => {
    const t = await buildChatApp();
    await t.acme.ok('POST', '/v1/messages', { to: CONTACT, content: { text: 'by cli' } }, 202);
    const env = {
      DATABASE_URL: t.config.databaseUrl,
      ...(t.config.databaseUrl.startsWith('postgres')
        ? { SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }
        : {}),
    };
    const run = await cli(['--json', 'contacts', 'erase', CONTACT], env, undefined, true);
    expect(run.code, run.stderr).toBe(0);
    const record = JSON.parse(run.stdout) as ContactErasure;
    expect(record).toMatchObject({ customerId: null, requestedBy: 'operator' });
    expect(record.counts.messages).toBe(1);
    const listed = await cli(['--json', 'contacts', 'erasures'], env, undefined, true);
    expect((JSON.parse(listed.stdout) as ContactErasure[]).map((e) => e.id)).toEqual([record.id]);
    const refused = await cli(['contacts', 'erase', '415 555'], env, undefined, true);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('INVALID_PHONE_NUMBER');
  }, 120_000);

  it('refuses an address that is not one, and an unknown customer', async () => {
    const { acme, app } = await buildChatApp();
    expectFailure(
      await acme.request('POST', '/v1/contact-erasures', { address: '415 555' }),
      400,
      'INVALID_PHONE_NUMBER',
    );
    expectFailure(
      await acme.request('POST', '/v1/contact-erasures', { address: 'nobody' }),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(
      await app.inject({
        method: 'POST',
        url: '/admin/v1/contact-erasures',
        headers: adminHeaders,
        payload: { address: CONTACT, customerId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f' },
      }),
      404,
      'NOT_FOUND',
    );
  });
});
