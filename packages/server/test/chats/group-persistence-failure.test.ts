import { join } from 'node:path';
import type { Chat, CreatedGroup } from '@switchboard/contract';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildChatApp, chatUrl, IMESSAGE_CONTACT } from './chat-test-app';

describe('a group whose conversation cannot be stored (spec: conversationId omitted if persistence failed)', () => {
  it('answers 201 with the chat, without conversationId, and logs why', async () => {
    // SQLite: the failure is injected in the database itself, not in the gateway's code.
    const t = await buildChatApp({ store: 'sqlite' });
    const database = new Database(join(t.dir, 'switchboard.db'));
    try {
      // The database refuses to record a provider chat on a conversation, as a full disk would.
      database.exec(`
        CREATE TRIGGER refuse_group_chat_id BEFORE UPDATE OF chat_id ON conversations
        WHEN NEW.chat_id IS NOT NULL
        BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
      `);
      const group = await t.acme.ok<CreatedGroup>(
        'POST',
        '/v1/chats/groups',
        { participants: [IMESSAGE_CONTACT], name: 'Launch crew' },
        201,
      );
      // The chat exists upstream and is answered, without the id that was not stored.
      expect(group).toMatchObject({
        chatId: expect.stringMatching(/^iMessage;\+;chat\d{18}$/),
        channel: 'imessage',
        participants: [IMESSAGE_CONTACT],
        name: 'Launch crew',
        isGroup: true,
      });
      expect(group).not.toHaveProperty('conversationId');
      expect(
        t.logs.some(
          (line) =>
            line.msg === 'group created but its conversation was not stored' &&
            line.chatId === group.chatId,
        ),
      ).toBe(true);

      // Once the database takes writes again, the next group has its conversationId.
      database.exec('DROP TRIGGER refuse_group_chat_id');
      const next = await t.acme.ok<CreatedGroup>(
        'POST',
        '/v1/chats/groups',
        { participants: [IMESSAGE_CONTACT], name: 'Second' },
        201,
      );
      expect(next.conversationId).toMatch(/^[0-9a-f-]{36}$/);
      expect((await t.acme.ok<Chat>('GET', chatUrl(next.conversationId ?? ''))).chatId).toBe(
        next.chatId,
      );
    } finally {
      database.close();
      await t.close();
    }
  });
});
