import { afterEach, describe, expect, it } from 'vitest';
import { Switchboard } from '../src/index';
import {
  failure,
  type LoopbackServer,
  sendJson,
  startLoopbackServer,
} from './support/loopback-server';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function frame(n: number): string {
  const body = {
    id: `evt_${n}`,
    type: 'message.sent',
    timestamp: '2026-11-21T10:00:00.000Z',
    data: {},
  };
  return `id: ${body.id}\ndata: ${JSON.stringify(body)}\n\n`;
}

describe('events.stream onOpen', () => {
  it('is called once per open connection, before its events, and not for refused ones', async () => {
    const log: string[] = [];
    server = await startLoopbackServer((_req, res, index) => {
      if (index === 1) {
        sendJson(res, 503, failure('SERVICE_UNAVAILABLE', 'restarting'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame(index));
      if (index === 0) setTimeout(() => res.socket?.destroy(), 10);
    });
    const client = new Switchboard({
      apiKey: 'sk_test',
      baseUrl: server.baseUrl,
      sleep: async () => {},
    });
    const stream = client.events.stream({ onOpen: () => log.push('open') });
    for await (const event of stream) {
      log.push('id' in event ? event.id : event.eventId);
      if (log.length === 4) break;
    }
    expect(log).toEqual(['open', 'evt_0', 'open', 'evt_2']);
  });
});
