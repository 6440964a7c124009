import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  Switchboard,
  type SwitchboardEvent,
} from '../src/index';
import {
  failure,
  type LoopbackHandler,
  type LoopbackServer,
  sendJson,
  startLoopbackServer,
} from './support/loopback-server';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function event(n: number, type = 'message.sent') {
  return {
    id: `evt_${n}`,
    type,
    timestamp: '2026-11-21T10:00:00.000Z',
    data: { messageId: `msg_${n}`, status: 'sent' },
  };
}

function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

function frame(res: ServerResponse, body: ReturnType<typeof event>): void {
  res.write(`id: ${body.id}\nevent: ${body.type}\ndata: ${JSON.stringify(body)}\n\n`);
}

async function clientFor(handler: LoopbackHandler) {
  server = await startLoopbackServer(handler);
  const waits: number[] = [];
  const client = new Switchboard({
    apiKey: 'sk_test',
    baseUrl: server.baseUrl,
    sleep: async (ms, signal) => {
      waits.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
  });
  return { client, waits, requests: server.requests };
}

/** Envelope events carry `id`; the flat FaceTime bodies carry `eventId`. */
function idOf(e: SwitchboardEvent): string {
  return 'id' in e ? e.id : e.eventId;
}

async function collect<T>(iterable: AsyncIterable<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) {
    out.push(item);
    if (out.length === count) break;
  }
  return out;
}

describe('client.events.stream', () => {
  it('yields typed events, ignoring heartbeats, split frames and non-JSON frames', async () => {
    const { client, requests } = await clientFor((_req, res) => {
      openStream(res);
      res.write(': heartbeat\n\n');
      frame(res, event(1));
      const second = JSON.stringify(event(2, 'message.delivered'));
      res.write(`id: evt_2\nevent: message.delivered\ndata: ${second.slice(0, 10)}`);
      setTimeout(() => res.write(`${second.slice(10)}\n\n`), 10);
      setTimeout(() => res.write('data: not json\n\n: heartbeat\n\n'), 20);
      setTimeout(() => frame(res, event(3)), 30);
    });
    const events = await collect(client.events.stream(), 3);
    expect(events.map(idOf)).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(events[1]).toEqual(event(2, 'message.delivered'));
    expect(requests[0]?.url).toBe('/v1/events');
    expect(requests[0]?.headers.accept).toBe('text/event-stream');
    expect(requests[0]?.headers.authorization).toBe('Bearer sk_test');
  });

  it('sends the event filter and narrows the event type', async () => {
    const { client, requests } = await clientFor((_req, res) => {
      openStream(res);
      frame(res, event(1, 'message.delivered'));
    });
    const stream = client.events.stream({ events: ['message.delivered', 'message.failed'] });
    const [delivered] = await collect(stream, 1);
    // Type-level check: only the two requested event types remain in the union.
    const type: 'message.delivered' | 'message.failed' | undefined = delivered?.type;
    expect(type).toBe('message.delivered');
    expect(requests[0]?.url).toBe('/v1/events?events=message.delivered%2Cmessage.failed');
  });

  it('reconnects after a dropped connection, sending Last-Event-ID', async () => {
    const { client, waits, requests } = await clientFor((_req, res, index) => {
      openStream(res);
      if (index === 0) {
        frame(res, event(1));
        frame(res, event(2));
        setTimeout(() => res.socket?.destroy(), 10);
      } else if (index === 1) {
        res.end(); // closes cleanly without sending anything
      } else {
        frame(res, event(3));
      }
    });
    const stream = client.events.stream({ reconnect: { initialDelay: 100, maxDelay: 1_000 } });
    const events = await collect(stream, 3);
    expect(events.map(idOf)).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(requests).toHaveLength(3);
    expect(requests[0]?.headers['last-event-id']).toBeUndefined();
    expect(requests[1]?.headers['last-event-id']).toBe('evt_2');
    expect(requests[2]?.headers['last-event-id']).toBe('evt_2');
    expect(stream.lastEventId).toBe('evt_3');
    // The first drop restarts the backoff; the empty connection that followed doubles it.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[1]).toBeGreaterThan(100);
    expect(waits[1]).toBeLessThanOrEqual(200);
  });

  it('reconnects after a 5xx and honours the server retry interval', async () => {
    const { client, waits } = await clientFor((_req, res, index) => {
      if (index === 0) {
        sendJson(res, 503, failure('INTERNAL_ERROR', 'restarting'));
        return;
      }
      openStream(res);
      if (index === 1) {
        res.write('retry: 1234\n\n');
        frame(res, event(1));
        res.end();
      } else {
        frame(res, event(2));
      }
    });
    const events = await collect(client.events.stream({ reconnect: { initialDelay: 10 } }), 2);
    expect(events.map(idOf)).toEqual(['evt_1', 'evt_2']);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBe(1234);
  });

  it('treats a silent connection as dropped after idleTimeout', async () => {
    const { client, requests } = await clientFor((_req, res, index) => {
      openStream(res);
      if (index > 0) frame(res, event(1));
    });
    const events = await collect(client.events.stream({ idleTimeout: 50 }), 1);
    expect(events.map(idOf)).toEqual(['evt_1']);
    expect(requests).toHaveLength(2);
  });

  it('throws a typed error, without reconnecting, on 401', async () => {
    const { client, requests } = await clientFor((_req, res) =>
      sendJson(res, 401, failure('UNAUTHORIZED', 'bad key', 'req_sse')),
    );
    const error = await collect(client.events.stream(), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).requestId).toBe('req_sse');
    expect(requests).toHaveLength(1);
  });

  it('gives up after reconnect.maxAttempts attempts in a row that receive nothing', async () => {
    const { client, requests } = await clientFor((_req, res) => {
      res.socket?.destroy();
    });
    const stream = client.events.stream({ reconnect: { maxAttempts: 2, initialDelay: 1 } });
    await expect(collect(stream, 1)).rejects.toBeInstanceOf(APIConnectionError);
    expect(requests).toHaveLength(3);
  });

  it('ends cleanly when the signal aborts, and closes the connection', async () => {
    let closed = false;
    const { client } = await clientFor((_req, res) => {
      openStream(res);
      frame(res, event(1));
      res.on('close', () => {
        closed = true;
      });
    });
    const controller = new AbortController();
    const received: SwitchboardEvent[] = [];
    for await (const e of client.events.stream({ signal: controller.signal })) {
      received.push(e);
      setTimeout(() => controller.abort(), 10);
    }
    expect(received.map(idOf)).toEqual(['evt_1']);
    await expect.poll(() => closed).toBe(true);
  });

  it('ends cleanly when aborted while waiting to reconnect', async () => {
    const controller = new AbortController();
    server = await startLoopbackServer((_req, res) => {
      res.socket?.destroy();
    });
    const client = new Switchboard({
      apiKey: 'k',
      baseUrl: server.baseUrl,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          controller.abort();
          reject(signal?.reason);
        }),
    });
    const received = await collect(client.events.stream({ signal: controller.signal }), 1);
    expect(received).toEqual([]);
  });

  it('closes the connection when the loop breaks', async () => {
    let closed = false;
    const { client } = await clientFor((_req, res) => {
      openStream(res);
      frame(res, event(1));
      res.on('close', () => {
        closed = true;
      });
    });
    await collect(client.events.stream(), 1);
    await expect.poll(() => closed).toBe(true);
  });
});
