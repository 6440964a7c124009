import type { Chat, CreatedGroup, WhatsAppChat } from '@switchboard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignNumber, createInstance } from '../support/admin-helpers';
import {
  buildChatApp,
  type ChatTestApp,
  chatUrl,
  expectFailure,
  IMESSAGE_CONTACT,
  OWN_NUMBER,
  SECOND_NUMBER,
  type TestCustomer,
  WHATSAPP_CONTACT,
} from './chat-test-app';

let t: ChatTestApp;
let acme: TestCustomer;

beforeAll(async () => {
  t = await buildChatApp();
  acme = t.acme;
});
afterAll(() => t.close());

const createGroup = (body: Record<string, unknown>, customer = acme) =>
  customer.ok<CreatedGroup>('POST', '/v1/chats/groups', body, 201);

describe('POST /v1/chats/groups', () => {
  it('creates an imessage group from the default instance, with a persisted conversationId', async () => {
    const group = await createGroup({
      participants: [IMESSAGE_CONTACT, 'ada@example.com'],
      name: 'Launch crew',
    });
    expect(group).toEqual({
      chatId: expect.stringMatching(/^iMessage;\+;chat\d{18}$/),
      conversationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      channel: 'imessage',
      participants: [IMESSAGE_CONTACT, 'ada@example.com'],
      name: 'Launch crew',
      isGroup: true,
      createdAt: '2026-01-15T12:00:00.000Z',
    });
    // Persisted: readable by both ids.
    const byChatId = await acme.ok<Chat>('GET', chatUrl(group.chatId));
    const byConversationId = await acme.ok<Chat>('GET', chatUrl(group.conversationId ?? ''));
    expect(byChatId).toEqual(byConversationId);
    expect(byChatId.conversationId).toBe(group.conversationId);
  });

  it('names are optional on imessage', async () => {
    const group = await createGroup({ participants: [IMESSAGE_CONTACT] });
    expect(group.name).toBeUndefined();
    expect(group.channel).toBe('imessage');
  });

  it('creates a whatsapp group with participants normalized to phone JIDs', async () => {
    const group = await createGroup({
      channel: 'whatsapp',
      participants: [WHATSAPP_CONTACT, '+14155550161'],
      name: 'Ops',
      from: SECOND_NUMBER,
    });
    expect(group).toMatchObject({
      chatId: expect.stringMatching(/^120363\d{12}@g\.us$/),
      channel: 'whatsapp',
      isGroup: true,
      name: 'Ops',
      participants: [
        { handle: '14155550160@s.whatsapp.net', isPhoneResolved: true, admin: null },
        { handle: '14155550161@s.whatsapp.net', isPhoneResolved: true, admin: null },
      ],
    });
  });

  it('answers NAME_REQUIRED for a whatsapp group without a name', async () => {
    expectFailure(
      await acme.request('POST', '/v1/chats/groups', {
        channel: 'whatsapp',
        participants: [WHATSAPP_CONTACT],
      }),
      400,
      'NAME_REQUIRED',
    );
  });

  it('refuses malformed participants with the right codes', async () => {
    expectFailure(
      await acme.request('POST', '/v1/chats/groups', { participants: ['415-555-0101'] }),
      400,
      'INVALID_PHONE_NUMBER',
    );
    expectFailure(
      await acme.request('POST', '/v1/chats/groups', {
        channel: 'whatsapp',
        name: 'x',
        participants: ['ada@example.com'],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(
      await acme.request('POST', '/v1/chats/groups', { participants: [] }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('answers ADDRESS_NOT_AUTHORIZED for a from that is not the customer’s', async () => {
    expectFailure(
      await acme.request('POST', '/v1/chats/groups', {
        participants: [IMESSAGE_CONTACT],
        from: '+14155550199',
      }),
      403,
      'ADDRESS_NOT_AUTHORIZED',
    );
  });

  it('uses the first number whose instance serves the channel, and NO_DEFAULT_ADDRESS when none does', async () => {
    const smsOnly = await createInstance(t.app, 'sms-only', ['sms']);
    const imessageOnly = await createInstance(t.app, 'imessage-only', ['imessage']);
    const beta = await t.addCustomer('Beta', '+14155550170', smsOnly.id);
    expectFailure(
      await beta.request('POST', '/v1/chats/groups', { participants: [IMESSAGE_CONTACT] }),
      400,
      'NO_DEFAULT_ADDRESS',
    );
    await assignNumber(t.app, beta.customerId, {
      phoneNumber: '+14155550171',
      instanceId: imessageOnly.id,
    });
    const group = await createGroup({ participants: [IMESSAGE_CONTACT] }, beta);
    expect(group.channel).toBe('imessage');
    // A from whose instance does not serve the channel is refused, naming the field.
    const refused = expectFailure(
      await beta.request('POST', '/v1/chats/groups', {
        channel: 'whatsapp',
        name: 'x',
        participants: [WHATSAPP_CONTACT],
        from: '+14155550171',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(refused.error.message).toMatch(/^from: /);
  });
});

describe('GET /v1/chats/{chatId}', () => {
  it('answers CONVERSATION_NOT_FOUND for unknown and foreign chats, by either id', async () => {
    const group = await createGroup({ participants: [IMESSAGE_CONTACT] });
    const other = await t.addCustomer('Other', '+14155550180');
    for (const id of [group.chatId, group.conversationId ?? '']) {
      expectFailure(await other.request('GET', chatUrl(id)), 404, 'CONVERSATION_NOT_FOUND');
    }
    expectFailure(
      await acme.request('GET', chatUrl('iMessage;+;chat000000000000000000')),
      404,
      'CONVERSATION_NOT_FOUND',
    );
    expectFailure(
      await acme.request('GET', chatUrl('0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f')),
      404,
      'CONVERSATION_NOT_FOUND',
    );
  });

  it('shows a whatsapp chat with participant objects', async () => {
    const group = await createGroup({
      channel: 'whatsapp',
      name: 'Ops',
      participants: [WHATSAPP_CONTACT],
    });
    const chat = await acme.ok<WhatsAppChat>('GET', chatUrl(group.chatId));
    expect(chat).toEqual({
      chatId: group.chatId,
      conversationId: group.conversationId,
      channel: 'whatsapp',
      name: 'Ops',
      isGroup: true,
      participants: [{ handle: '14155550160@s.whatsapp.net', isPhoneResolved: true, admin: null }],
    });
  });
});

describe.each(['imessage', 'whatsapp'] as const)('group operations on %s', (channel) => {
  const participant = channel === 'whatsapp' ? WHATSAPP_CONTACT : IMESSAGE_CONTACT;
  const handleOf = (address: string) =>
    channel === 'whatsapp' ? `${address.slice(1)}@s.whatsapp.net` : address;
  let group: CreatedGroup;

  beforeAll(async () => {
    group = await createGroup({ channel, name: 'Before', participants: [participant] });
  });

  it('renames the group and emits chat.title.changed', async () => {
    const result = await acme.ok('PUT', chatUrl(group.chatId, '/name'), { name: 'After' });
    expect(result).toEqual({ chatId: group.chatId, name: 'After' });
    expect((await acme.ok<Chat>('GET', chatUrl(group.chatId))).name).toBe('After');
    const event = acme.eventsOf('chat.title.changed').find((e) => e.data.chatId === group.chatId);
    expect(event?.data).toEqual({
      externalMessageId: null,
      chatId: group.chatId,
      conversationId: group.conversationId,
      actor: OWN_NUMBER,
      to: OWN_NUMBER,
      channel,
      title: 'After',
    });
    expectFailure(
      await acme.request('PUT', chatUrl(group.chatId, '/name'), { name: '' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('adds a participant (chat.participant.added), and adding a member again is a silent no-op', async () => {
    const added = '+14155550162';
    const result = await acme.ok('POST', chatUrl(group.chatId, '/participants'), {
      participant: added,
    });
    expect(result).toEqual({ chatId: group.chatId, participant: added });
    const events = () =>
      acme.eventsOf('chat.participant.added').filter((e) => e.data.chatId === group.chatId);
    expect(events().map((e) => e.data.participant)).toEqual([handleOf(added)]);
    const chat = await acme.ok<Chat>('GET', chatUrl(group.chatId));
    expect(JSON.stringify(chat.participants)).toContain(handleOf(added));

    await acme.ok('POST', chatUrl(group.chatId, '/participants'), { participant: added });
    expect(events()).toHaveLength(1);
  });

  it('removes a participant (chat.participant.left); a non-member is NOT_FOUND', async () => {
    const result = await acme.ok(
      'DELETE',
      chatUrl(group.chatId, `/participants/${encodeURIComponent(participant)}`),
    );
    expect(result).toEqual({ chatId: group.chatId, removedParticipant: participant });
    const left = acme
      .eventsOf('chat.participant.left')
      .filter((e) => e.data.chatId === group.chatId);
    expect(left.map((e) => e.data.participant)).toEqual([handleOf(participant)]);
    expect(
      JSON.stringify((await acme.ok<Chat>('GET', chatUrl(group.chatId))).participants),
    ).not.toContain(handleOf(participant));
    expectFailure(
      await acme.request(
        'DELETE',
        chatUrl(group.chatId, `/participants/${encodeURIComponent(participant)}`),
      ),
      404,
      'NOT_FOUND',
    );
  });

  it('shows typing in the chat (start and stop)', async () => {
    expect(await acme.ok('POST', chatUrl(group.chatId, '/typing'), { status: 'start' })).toEqual({
      chatId: group.chatId,
      typing: true,
    });
    expect(await acme.ok('POST', chatUrl(group.chatId, '/typing'), { status: 'stop' })).toEqual({
      chatId: group.chatId,
      typing: false,
    });
    expectFailure(
      await acme.request('POST', chatUrl(group.chatId, '/typing'), { status: 'paused' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it(
    channel === 'imessage'
      ? 'marks the chat read and unread'
      : 'refuses read and unread with CHANNEL_NOT_SUPPORTED',
    async () => {
      for (const state of ['read', 'unread'] as const) {
        const response = await acme.request('POST', chatUrl(group.chatId, `/${state}`));
        if (channel === 'imessage') {
          expect(JSON.parse(response.body).data).toEqual({ chatId: group.chatId, [state]: true });
        } else {
          expectFailure(response, 400, 'CHANNEL_NOT_SUPPORTED');
        }
      }
    },
  );

  it('answers CONVERSATION_NOT_FOUND on every route for another customer', async () => {
    const other = await t.addCustomer(
      `Stranger ${channel}`,
      channel === 'whatsapp' ? '+14155550181' : '+14155550182',
    );
    const routes: [Parameters<TestCustomer['request']>[0], string, unknown?][] = [
      ['PUT', chatUrl(group.chatId, '/name'), { name: 'x' }],
      ['POST', chatUrl(group.chatId, '/participants'), { participant: '+14155550163' }],
      ['DELETE', chatUrl(group.chatId, `/participants/${encodeURIComponent('+14155550162')}`)],
      ['POST', chatUrl(group.chatId, '/leave')],
      ['POST', chatUrl(group.chatId, '/read')],
      ['POST', chatUrl(group.chatId, '/unread')],
      ['POST', chatUrl(group.chatId, '/typing'), { status: 'start' }],
    ];
    for (const [method, url, body] of routes) {
      expectFailure(await other.request(method, url, body), 404, 'CONVERSATION_NOT_FOUND');
    }
  });

  it('leaves the group; the chat is then gone', async () => {
    expect(await acme.ok('POST', chatUrl(group.chatId, '/leave'))).toEqual({
      chatId: group.chatId,
      left: true,
    });
    expectFailure(await acme.request('GET', chatUrl(group.chatId)), 404, 'CONVERSATION_NOT_FOUND');
    expectFailure(
      await acme.request('POST', chatUrl(group.chatId, '/leave')),
      404,
      'CONVERSATION_NOT_FOUND',
    );
  });
});

describe('1:1 chats', () => {
  it('refuse group-only operations with VALIDATION_ERROR, and allow typing and read', async () => {
    const chatId = `iMessage;-;${IMESSAGE_CONTACT}`;
    await acme.ok('POST', '/v1/sandbox/inbound-messages', {
      channel: 'imessage',
      from: IMESSAGE_CONTACT,
      to: OWN_NUMBER,
      text: 'hello',
      chatId,
    });
    const chat = await acme.ok<Chat>('GET', chatUrl(chatId));
    expect(chat).toMatchObject({ chatId, isGroup: false, participants: [IMESSAGE_CONTACT] });
    for (const [method, url, body] of [
      ['PUT', chatUrl(chatId, '/name'), { name: 'x' }],
      ['POST', chatUrl(chatId, '/participants'), { participant: '+14155550163' }],
      ['DELETE', chatUrl(chatId, `/participants/${encodeURIComponent(IMESSAGE_CONTACT)}`)],
      ['POST', chatUrl(chatId, '/leave')],
    ] as const) {
      expectFailure(await acme.request(method, url, body), 400, 'VALIDATION_ERROR');
    }
    await acme.ok('POST', chatUrl(chatId, '/typing'), { status: 'start' });
    await acme.ok('POST', chatUrl(chatId, '/read'));
  });
});

describe('whatsapp members known by @lid', () => {
  it('start unresolved and resolve to a phone JID in the chat and its payloads', async () => {
    const group = await createGroup({
      channel: 'whatsapp',
      name: 'Lids',
      participants: [WHATSAPP_CONTACT],
    });
    const lid = '208512345678901@lid';
    await acme.ok(
      'POST',
      chatUrl(group.chatId, '/events').replace('/v1/chats', '/v1/sandbox/chats'),
      {
        action: 'participant.added',
        actor: WHATSAPP_CONTACT,
        participant: lid,
      },
    );
    let chat = await acme.ok<WhatsAppChat>('GET', chatUrl(group.chatId));
    expect(chat.participants).toContainEqual({ handle: lid, isPhoneResolved: false, admin: null });

    const resolved = await acme.ok<{ jid: string; conversationIds: string[] }>(
      'POST',
      `/v1/sandbox/whatsapp/numbers/${encodeURIComponent(OWN_NUMBER)}/lid-resolutions`,
      { lid, phone: '+14155550164' },
    );
    expect(resolved).toEqual({
      lid,
      jid: '14155550164@s.whatsapp.net',
      conversationIds: [group.conversationId],
    });
    chat = await acme.ok<WhatsAppChat>('GET', chatUrl(group.chatId));
    expect(chat.participants).toContainEqual({
      handle: '14155550164@s.whatsapp.net',
      isPhoneResolved: true,
      admin: null,
    });
    expect(chat.participants.some((p) => p.handle === lid)).toBe(false);
  });
});
