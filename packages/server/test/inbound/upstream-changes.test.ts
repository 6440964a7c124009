import type { Message, SwitchboardEvent } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { expectSuccess } from '../support/envelope-assertions';
import { buildUpstreamApp, UPSTREAM_NUMBER } from '../support/simulated-upstream';
import { recordedEvents } from '../support/simulator-app';
import { bearer } from '../support/test-app';

const NUMBER = UPSTREAM_NUMBER;
const CONTACT = '+14155550123';

async function fixture(config: Record<string, unknown> = {}) {
  const t = await buildUpstreamApp({ config });
  const events = recordedEvents(t.app, t.customerId);
  const call = async (body: object) => {
    const response = await t.call(body);
    expect(response.statusCode, response.body).toBe(200);
  };
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(t.key), ...(payload ? { payload } : {}) });
  const messages = async () =>
    expectSuccess<{ messages: Message[] }>(await api('GET', '/v1/messages')).messages;
  return { ...t, events, call, api, messages };
}

const types = (events: SwitchboardEvent[]) => events.map((event) => event.type);
/** The `data` of the event at `index` (every event here has one). */
const dataOf = (events: SwitchboardEvent[], index: number) => {
  const event = events[index];
  return event && 'data' in event ? event.data : undefined;
};

describe('what an upstream reports beyond new messages', () => {
  it('stores a message sent from the device itself as outbound, source device, and emits message.sent', async () => {
    const t = await fixture();
    await t.call({
      id: 'd1',
      type: 'message.inbound',
      channel: 'imessage',
      from: NUMBER,
      to: CONTACT,
      text: 'typed on the Mac',
      fromMe: true,
    });
    await t.call({
      id: 'd1',
      type: 'message.inbound',
      channel: 'imessage',
      from: NUMBER,
      to: CONTACT,
      text: 'typed on the Mac',
      fromMe: true,
    });
    const [message] = await t.messages();
    expect(message).toMatchObject({
      direction: 'outbound',
      source: 'device',
      status: 'sent',
      from: NUMBER,
      to: CONTACT,
      content: { text: 'typed on the Mac' },
    });
    expect(types(t.events)).toEqual(['message.sent']);
    expect(dataOf(t.events, 0)).toMatchObject({
      source: 'device',
      from: NUMBER,
      to: CONTACT,
      status: 'sent',
    });
  });

  it('stores a history sync without emitting anything', async () => {
    const t = await fixture();
    await t.call({
      id: 'h1',
      type: 'message.inbound',
      channel: 'imessage',
      from: CONTACT,
      to: NUMBER,
      text: 'from last year',
      history: true,
      timestamp: '2025-06-01T10:00:00.000Z',
    });
    await t.call({
      id: 'h2',
      type: 'message.inbound',
      channel: 'imessage',
      from: NUMBER,
      to: CONTACT,
      text: 'my old reply',
      history: 'true',
      fromMe: 'true',
    });
    const listed = await t.messages();
    expect(listed.map((m) => [m.direction, m.content.text])).toEqual(
      expect.arrayContaining([
        ['inbound', 'from last year'],
        ['outbound', 'my old reply'],
      ]),
    );
    expect(listed.find((m) => m.direction === 'inbound')?.createdAt).toBe(
      '2025-06-01T10:00:00.000Z',
    );
    expect(t.events).toEqual([]);
  });

  it('applies a contact’s edit and unsend of their message, with direction inbound, once', async () => {
    const t = await fixture();
    await t.call({
      id: 'm1',
      type: 'message.inbound',
      channel: 'imessage',
      externalId: 'guid-1',
      from: CONTACT,
      to: NUMBER,
      text: 'helo',
    });
    const edit = {
      id: 'e1',
      type: 'message.changed',
      externalId: 'guid-1',
      from: CONTACT,
      to: NUMBER,
      change: 'edited',
      text: 'hello',
    };
    await t.call(edit);
    await t.call({ ...edit, id: 'e1-again' });
    const [edited] = await t.messages();
    expect(edited?.content.text).toBe('hello');
    await t.call({
      id: 'u1',
      type: 'message.changed',
      externalId: 'guid-1',
      from: CONTACT,
      to: NUMBER,
      change: 'unsent',
    });
    await t.call({
      id: 'u2',
      type: 'message.changed',
      externalId: 'guid-1',
      from: CONTACT,
      to: NUMBER,
      change: 'unsent',
    });
    const [unsent] = await t.messages();
    expect(unsent?.status).toBe('unsent');
    expect(types(t.events)).toEqual(['message.inbound', 'message.edited', 'message.unsent']);
    expect(dataOf(t.events, 1)).toMatchObject({
      direction: 'inbound',
      previousText: 'helo',
      text: 'hello',
    });
    expect(dataOf(t.events, 2)).toMatchObject({ direction: 'inbound', status: 'unsent' });
    // A change of a message the gateway never saw changes nothing.
    await t.call({
      id: 'u3',
      type: 'message.changed',
      externalId: 'guid-unknown',
      from: CONTACT,
      to: NUMBER,
      change: 'unsent',
    });
    expect(t.events).toHaveLength(3);
  });

  it('marks a group message read only once every member has read it', async () => {
    const t = await fixture({ stepMs: 60_000 });
    const group = expectSuccess<{ chatId: string; conversationId: string }>(
      await t.api('POST', '/v1/chats/groups', {
        participants: [CONTACT, '+14155550124'],
        name: 'Crew',
      }),
      201,
    );
    const sent = expectSuccess<{ id: string }>(
      await t.api('POST', '/v1/messages', {
        chatId: group.conversationId,
        content: { text: 'hi all' },
      }),
      202,
    );
    let externalId: string | null = null;
    for (let i = 0; i < 100 && !externalId; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      externalId = expectSuccess<Message>(await t.api('GET', `/v1/messages/${sent.id}`)).externalId;
    }
    const status = (id: string, value: string, recipient?: string) =>
      t.call({
        id,
        type: 'message.status',
        channel: 'imessage',
        externalId,
        status: value,
        ...(recipient ? { recipient } : {}),
      });
    const current = async () =>
      expectSuccess<Message>(await t.api('GET', `/v1/messages/${sent.id}`)).status;
    await status('s', 'sent');
    await status('d1', 'delivered', CONTACT);
    expect(await current()).toBe('sent');
    await status('r1', 'read', CONTACT);
    expect(await current()).toBe('sent');
    await status('d2', 'delivered', '+14155550124');
    expect(await current()).toBe('delivered');
    await status('r2', 'read', '+14155550124');
    expect(await current()).toBe('read');
    const lifecycle = types(t.events).filter((type) => type !== 'chat.participant.added');
    expect(lifecycle.filter((type) => type === 'message.read')).toHaveLength(1);
    expect(lifecycle.filter((type) => type === 'message.delivered')).toHaveLength(1);
  });

  it('stores a chat’s read state and a member’s role, emitting nothing for them', async () => {
    const t = await fixture();
    const group = expectSuccess<{ chatId: string; conversationId: string }>(
      await t.api('POST', '/v1/chats/groups', { participants: [CONTACT], name: 'Crew' }),
      201,
    );
    const before = t.events.length;
    await t.call({
      id: 'cr1',
      type: 'chat.read',
      channel: 'imessage',
      chatId: group.chatId,
      to: NUMBER,
      read: true,
      timestamp: '2026-01-15T11:00:00.000Z',
    });
    const chat = await t.app.store.conversations.findById(t.customerId, group.conversationId);
    expect(chat?.readAt?.toISOString()).toBe('2026-01-15T11:00:00.000Z');
    await t.call({
      id: 'cr2',
      type: 'chat.read',
      channel: 'imessage',
      chatId: group.chatId,
      to: NUMBER,
      read: false,
    });
    expect(
      (await t.app.store.conversations.findById(t.customerId, group.conversationId))?.readAt,
    ).toBeNull();

    await t.call({
      id: 'role1',
      type: 'chat.role',
      channel: 'imessage',
      chatId: group.chatId,
      actor: CONTACT,
      to: NUMBER,
      participant: CONTACT,
      role: 'admin',
    });
    const promoted = await t.app.store.conversations.findById(t.customerId, group.conversationId);
    expect(promoted?.participants.find((p) => p.handle === CONTACT)?.admin).toBe('admin');
    expect(t.events.length).toBe(before);
  });
});
