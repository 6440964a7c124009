import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, type Switchboard } from '../../src/index';
import { clientFor } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({ numbers: ['+14155550100'] });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

describe('chats against the real server', () => {
  it('creates an iMessage group and runs every chat operation on it', async () => {
    const group = await client.chats.createGroup({
      participants: ['+12125550104', '+12125550105'],
      name: 'Team',
    });
    expect(group.chatId).toMatch(/^iMessage;\+;chat/);
    const conversationId = group.conversationId;
    if (conversationId === undefined) throw new Error('the group has no conversationId');

    const chat = await client.chats.get(group.chatId);
    expect(chat).toMatchObject({ chatId: group.chatId, name: 'Team', isGroup: true });
    // The conversationId names the same chat; the SDK URL-encodes the provider id.
    expect((await client.chats.get(conversationId)).chatId).toBe(group.chatId);

    expect(await client.chats.rename(group.chatId, { name: 'Team (new)' })).toMatchObject({
      name: 'Team (new)',
    });
    const added = await client.chats.addParticipant(conversationId, {
      participant: '+12125550106',
    });
    expect(added.participant).toBe('+12125550106');
    const withNewMember = await client.chats.get(group.chatId);
    expect(withNewMember.name).toBe('Team (new)');
    expect(JSON.stringify(withNewMember.participants)).toContain('+12125550106');

    const removed = await client.chats.removeParticipant(group.chatId, '+12125550106');
    expect(removed.removedParticipant).toBe('+12125550106');

    expect(await client.chats.markRead(group.chatId)).toMatchObject({ read: true });
    expect(await client.chats.markUnread(group.chatId)).toMatchObject({ unread: true });
    expect(await client.chats.typing(group.chatId, { status: 'start' })).toMatchObject({
      typing: true,
    });
    expect(await client.chats.typing(group.chatId, { status: 'stop' })).toMatchObject({
      typing: false,
    });

    const sent = await client.messages.send({
      chatId: conversationId,
      content: { text: 'Hi all' },
    });
    expect(sent.conversationId).toBe(conversationId);
    await expect.poll(async () => (await client.messages.get(sent.id)).status).toBe('delivered');

    expect(await client.chats.leave(group.chatId)).toMatchObject({ left: true });
    const gone = await client.chats.get(group.chatId).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).code).toBe('CONVERSATION_NOT_FOUND');
  });

  it('creates a WhatsApp group, whose members become phone JIDs', async () => {
    const group = await client.chats.createGroup({
      participants: ['+12125550160'],
      name: 'Padel',
      channel: 'whatsapp',
    });
    expect(group.chatId).toMatch(/@g\.us$/);
    const chat = await client.chats.get(group.chatId);
    if (chat.channel !== 'whatsapp')
      throw new Error(`expected a whatsapp chat, got ${chat.channel}`);
    expect(chat.participants.map((p) => p.handle)).toContain('12125550160@s.whatsapp.net');
  });
});
