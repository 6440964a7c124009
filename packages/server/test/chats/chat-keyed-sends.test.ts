import type {
  CreatedGroup,
  MessageLifecycleData,
  SendMessageResult,
  SwitchboardEvent,
} from '@switchboard/contract';
import type { MessagingProvider, ProviderCreateGroupRequest } from '@switchboard/provider-kit';
import { ProviderRegistry } from '@switchboard/provider-kit';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSimulatorFactory } from '../../src/providers/simulator/simulator-factory';
import { assignNumber, createInstance } from '../support/admin-helpers';
import {
  buildChatApp,
  chatUrl,
  createGroup,
  eventually,
  expectFailure,
  IMESSAGE_CONTACT,
  OWN_NUMBER,
  SECOND_NUMBER,
  type TestCustomer,
  WHATSAPP_CONTACT,
  WHATSAPP_GROUP,
} from './chat-test-app';

/** Lifecycle events of one message, as the customer received them. */
function lifecycleOf(customer: TestCustomer, messageId: string) {
  return customer.events.filter(
    (event): event is Extract<SwitchboardEvent, { data: MessageLifecycleData }> =>
      'data' in event &&
      event.type.startsWith('message.') &&
      (event.data as { messageId?: string }).messageId === messageId,
  );
}

describe('sends keyed by a chat', () => {
  it('go to the chat’s instance and channel, answer conversationId, and carry the chat fragments', async () => {
    const t = await buildChatApp();
    const group = await createGroup(t.acme, WHATSAPP_GROUP);
    // Routing says imessage then sms; the chat pins whatsapp and routing is ignored.
    const sent = await t.acme.ok<SendMessageResult>(
      'POST',
      '/v1/messages',
      {
        chatId: group.conversationId,
        content: { text: 'Standup in 5' },
        routing: { preference: ['sms'], fallback: true },
      },
      202,
    );
    expect(sent).toEqual({
      id: expect.stringMatching(/^msg_/),
      status: 'queued',
      conversationId: group.conversationId,
      from: OWN_NUMBER,
      createdAt: expect.any(String),
    });
    expect(sent).not.toHaveProperty('to');

    const delivered = await eventually(() =>
      lifecycleOf(t.acme, sent.id).find((event) => event.type === 'message.delivered'),
    );
    expect(delivered.data).toMatchObject({
      messageId: sent.id,
      conversationId: group.conversationId,
      channel: 'whatsapp',
      conversation: {
        id: group.conversationId,
        chatId: group.chatId,
        channel: 'whatsapp',
        isGroup: true,
        name: 'Ops',
        participants: [
          { handle: '14155550160@s.whatsapp.net', isPhoneResolved: true, admin: null },
        ],
      },
      sender: { address: OWN_NUMBER, instanceName: 'simulator' },
    });
    expect(delivered.data).not.toHaveProperty('to');
    for (const event of lifecycleOf(t.acme, sent.id)) {
      expect(event.data.conversation?.id, event.type).toBe(group.conversationId);
      expect(event.data.sender, event.type).toEqual({
        address: OWN_NUMBER,
        instanceName: 'simulator',
      });
    }
    const message = await t.acme.ok<{ conversationId?: string; to?: string; channel: string }>(
      'GET',
      `/v1/messages/${sent.id}`,
    );
    expect(message.conversationId).toBe(group.conversationId);
    expect(message.to).toBeUndefined();
  });

  it('show @lid members unresolved, then resolved, in the lifecycle payloads', async () => {
    const t = await buildChatApp();
    const group = await createGroup(t.acme, {
      channel: 'whatsapp',
      name: 'Lids',
      participants: [WHATSAPP_CONTACT],
    });
    const lid = '208512345678901@lid';
    await t.acme.ok('POST', `/v1/sandbox/chats/${encodeURIComponent(group.chatId)}/events`, {
      action: 'participant.added',
      actor: WHATSAPP_CONTACT,
      participant: lid,
    });
    const participantsOf = async () => {
      const sent = await t.acme.ok<SendMessageResult>(
        'POST',
        '/v1/messages',
        { chatId: group.conversationId, content: { text: 'hello' } },
        202,
      );
      const event = await eventually(() =>
        lifecycleOf(t.acme, sent.id).find((e) => e.type === 'message.sent'),
      );
      const conversation = event.data.conversation;
      return conversation?.channel === 'whatsapp' ? conversation.participants : [];
    };
    expect(await participantsOf()).toContainEqual({
      handle: lid,
      isPhoneResolved: false,
      admin: null,
    });
    await t.acme.ok(
      'POST',
      `/v1/sandbox/whatsapp/numbers/${encodeURIComponent(OWN_NUMBER)}/lid-resolutions`,
      { lid, phone: '+14155550164' },
    );
    const resolved = await participantsOf();
    expect(resolved).toContainEqual({
      handle: '14155550164@s.whatsapp.net',
      isPhoneResolved: true,
      admin: null,
    });
    expect(resolved.some((p) => p.handle === lid)).toBe(false);
  });

  it('accept conversationId as the alias, and a from of the chat’s own instance', async () => {
    const t = await buildChatApp();
    const group = await createGroup(t.acme, { participants: [IMESSAGE_CONTACT] });
    const sent = await t.acme.ok<SendMessageResult>(
      'POST',
      '/v1/messages',
      { conversationId: group.conversationId, from: SECOND_NUMBER, content: { text: 'hi' } },
      202,
    );
    expect(sent).toMatchObject({ conversationId: group.conversationId, from: SECOND_NUMBER });
  });

  it('answer FROM_INSTANCE_CANNOT_REACH for a from on another instance', async () => {
    const t = await buildChatApp();
    const other = await createInstance(t.app, 'second-mac', ['imessage', 'sms', 'whatsapp']);
    await assignNumber(t.app, t.acme.customerId, {
      phoneNumber: '+14155550102',
      instanceId: other.id,
    });
    const group = await createGroup(t.acme, { participants: [IMESSAGE_CONTACT] });
    for (const [from, status, code] of [
      ['+14155550102', 400, 'FROM_INSTANCE_CANNOT_REACH'],
      ['+14155550199', 403, 'ADDRESS_NOT_AUTHORIZED'],
    ] as const) {
      expectFailure(
        await t.acme.request('POST', '/v1/messages', {
          chatId: group.conversationId,
          from,
          content: { text: 'hi' },
        }),
        status,
        code,
      );
    }
  });

  it('answer CONVERSATION_NOT_FOUND for unknown, foreign and left chats', async () => {
    const t = await buildChatApp();
    const group = await createGroup(t.acme, { participants: [IMESSAGE_CONTACT] });
    const other = await t.addCustomer('Other', '+14155550180');
    const send = (customer: TestCustomer, chatId: string) =>
      customer.request('POST', '/v1/messages', { chatId, content: { text: 'hi' } });
    expectFailure(await send(other, group.conversationId ?? ''), 404, 'CONVERSATION_NOT_FOUND');
    expectFailure(
      await send(t.acme, '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f'),
      404,
      'CONVERSATION_NOT_FOUND',
    );
    await t.acme.ok('POST', chatUrl(group.chatId, '/leave'));
    expectFailure(await send(t.acme, group.conversationId ?? ''), 404, 'CONVERSATION_NOT_FOUND');
  });

  it('answer GROUP_SMS_UNSUPPORTED for an SMS group', async () => {
    const t = await buildChatApp();
    const received = await t.acme.ok<{ conversationId: string }>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'imessage',
        from: IMESSAGE_CONTACT,
        to: OWN_NUMBER,
        text: 'MMS group hello',
        chatId: 'SMS;+;chat123456789012345678',
      },
    );
    expectFailure(
      await t.acme.request('POST', '/v1/messages', {
        chatId: received.conversationId,
        content: { text: 'hi all' },
      }),
      400,
      'GROUP_SMS_UNSUPPORTED',
    );
  });

  it('answer CONVERSATION_NOT_READY while the provider is still creating the group', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const simulator = createSimulatorFactory({ stepMs: 0 });
    // A slow upstream: group creation waits for the test, like BlueBubbles creating a chat.
    const registry = new ProviderRegistry().register({
      ...simulator,
      create(instance) {
        const provider = simulator.create(instance);
        return new Proxy(provider, {
          get(target, property) {
            const groups = target.capabilities.groups;
            if (property === 'capabilities' && groups) {
              return {
                ...target.capabilities,
                groups: {
                  ...groups,
                  createGroup: async (request: ProviderCreateGroupRequest) => {
                    await gate;
                    return groups.createGroup(request);
                  },
                },
              };
            }
            const value: unknown = Reflect.get(target, property);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }) as MessagingProvider;
      },
    });
    const t = await buildChatApp({ overrides: { providerRegistry: registry }, store: 'sqlite' });
    const creating = t.acme.request('POST', '/v1/chats/groups', {
      participants: [IMESSAGE_CONTACT],
    });
    // The conversation is stored before the provider answers; no route lists chats, so its id is
    // read from the database the way an operator would.
    const db = new Database(t.databasePath, { readonly: true });
    const conversationId = await eventually(
      () =>
        (
          db.prepare('select id from conversations where chat_id is null').get() as
            | { id: string }
            | undefined
        )?.id,
    );
    db.close();
    expectFailure(
      await t.acme.request('POST', '/v1/messages', {
        chatId: conversationId,
        content: { text: 'hi' },
      }),
      409,
      'CONVERSATION_NOT_READY',
    );
    release();
    const created = JSON.parse((await creating).body) as { data: CreatedGroup };
    expect(created.data.conversationId).toBe(conversationId);
    await t.acme.ok(
      'POST',
      '/v1/messages',
      { chatId: conversationId, content: { text: 'hi' } },
      202,
    );
  });
});
