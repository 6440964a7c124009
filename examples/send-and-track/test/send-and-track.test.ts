import {
  type ExampleServer,
  runExample,
  startExampleServer,
} from '@switchboard/examples-test-server';
import { Switchboard } from '@switchboard/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAndTrack } from '../src/send-and-track';

let server: ExampleServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startExampleServer();
  client = new Switchboard({ apiKey: server.apiKey, baseUrl: server.baseUrl });
});
afterAll(() => server.close());

describe('send-and-track against a real server on the simulator', () => {
  it('follows an iMessage to delivered', async () => {
    const printed: string[] = [];
    const result = await sendAndTrack(client, {
      to: '+12125550104',
      text: 'Hello',
      onEvent: (event) => printed.push(event.type),
    });
    expect(result.status).toBe('delivered');
    expect(result.events.map((event) => event.type)).toEqual([
      'message.queued',
      'message.sent',
      'message.delivered',
    ]);
    expect(printed).toEqual(result.events.map((event) => event.type));
    expect((await client.messages.get(result.messageId)).status).toMatch(/^(delivered|read)$/);
  });

  it('shows the fallback to SMS when the iMessage attempt fails', async () => {
    // DD 20–29: the iMessage attempt fails, SMS delivers.
    const result = await sendAndTrack(client, { to: '+12125550123', text: 'Hello' });
    expect(result.status).toBe('delivered');
    const fallback = result.events.find((event) => event.type === 'message.fallback');
    expect(fallback?.data).toMatchObject({ fromChannel: 'imessage', toChannel: 'sms' });
    expect(result.events.at(-1)?.data.channel).toBe('sms');
  });

  it('ends with failed when every channel fails', async () => {
    // DD 30, 32–39: every channel fails.
    const result = await sendAndTrack(client, { to: '+12125550133', text: 'Hello' });
    expect(result.status).toBe('failed');
    const failed = result.events.at(-1);
    expect(failed?.type).toBe('message.failed');
    expect(failed?.data.errorCode).toBe('IMESSAGE_SEND_FAILED');
  });

  it('tracks several messages at once without mixing their events', async () => {
    const results = await Promise.all(
      ['+12125550101', '+12125550102', '+12125550103'].map((to) =>
        sendAndTrack(client, { to, text: 'Hello' }),
      ),
    );
    expect(new Set(results.map((result) => result.messageId)).size).toBe(3);
    for (const result of results) {
      expect(result.status).toBe('delivered');
      expect(result.events.every((event) => event.data.messageId === result.messageId)).toBe(true);
    }
  });
});

describe('pnpm start', () => {
  it('finds a server on another port from PORT alone, as the server reads it', async () => {
    const port = new URL(server.baseUrl).port;
    expect(port).not.toBe('3000');
    const run = await runExample(new URL('..', import.meta.url), ['+12125550104'], {
      SWITCHBOARD_API_KEY: server.apiKey,
      PORT: port,
    });
    expect(run.output).toMatch(/message\.delivered/);
    expect(run.code, run.output).toBe(0);
  });
});
