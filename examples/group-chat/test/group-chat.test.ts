import {
  type ExampleServer,
  runExample,
  startExampleServer,
} from '@switchboard/examples-test-server';
import { Switchboard } from '@switchboard/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGroupChat } from '../src/group-chat';

let server: ExampleServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startExampleServer();
  client = new Switchboard({ apiKey: server.apiKey, baseUrl: server.baseUrl });
});
afterAll(() => server.close());

describe('group-chat against a real server on the simulator', () => {
  it('creates, renames and grows a group, then sends into it by conversationId', async () => {
    const lines: string[] = [];
    const { chat, conversationId, message } = await runGroupChat(client, {
      participants: ['+12125550104', '+12125550105'],
      name: 'Dinner club',
      newName: 'Dinner club 2',
      newParticipant: '+12125550106',
      text: 'Friday at 8?',
      log: (line) => lines.push(line),
    });

    expect(chat).toMatchObject({ conversationId, name: 'Dinner club 2', isGroup: true });
    expect(chat.chatId).toMatch(/^iMessage;\+;chat/);
    expect(chat.participants).toEqual(
      expect.arrayContaining(['+12125550104', '+12125550105', '+12125550106']),
    );
    expect(lines).toHaveLength(4);

    expect(message).toMatchObject({ status: 'queued', conversationId });
    await expect.poll(async () => (await client.messages.get(message.id)).status).toBe('delivered');
    const delivered = await client.messages.get(message.id);
    expect(delivered).toMatchObject({ conversationId, channel: 'imessage' });
    expect(delivered.content.text).toBe('Friday at 8?');
  });
});

describe('pnpm start', () => {
  it('finds a server named by SWITCHBOARD_URL, over a PORT that names another', async () => {
    const run = await runExample(new URL('..', import.meta.url), [], {
      SWITCHBOARD_API_KEY: server.apiKey,
      SWITCHBOARD_URL: server.baseUrl,
      PORT: '1',
    });
    expect(run.output).toContain('Dinner club 🍝: 3 members');
    expect(run.code, run.output).toBe(0);
  });
});
