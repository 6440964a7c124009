import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Switchboard, SwitchboardEvent } from '../../src/index';
import { clientFor } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({ numbers: ['+14155550100'] });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** The message id an event is about, when it is a message event. */
function messageIdOf(event: SwitchboardEvent): string | undefined {
  if (!('data' in event) || typeof event.data !== 'object' || event.data === null) return undefined;
  return 'messageId' in event.data && typeof event.data.messageId === 'string'
    ? event.data.messageId
    : undefined;
}

describe('client.events.stream against the real server', () => {
  it('follows a sent message to delivered', async () => {
    const controller = new AbortController();
    const opened = signal();
    const stream = client.events.stream({ signal: controller.signal, onOpen: opened.resolve });
    const seen: SwitchboardEvent[] = [];
    let messageId: string | undefined;
    const followed = (async () => {
      for await (const event of stream) {
        seen.push(event);
        if (event.type === 'message.delivered' && event.data.messageId === messageId) {
          controller.abort();
        }
      }
    })();

    await opened.promise;
    const sent = await client.messages.send({ to: '+12125550104', content: { text: 'Track me' } });
    messageId = sent.id;
    await followed;

    const types = seen.filter((event) => messageIdOf(event) === sent.id).map((e) => e.type);
    // A `message.read` already on the wire may arrive before the abort lands.
    expect(types.slice(0, 3)).toEqual(['message.queued', 'message.sent', 'message.delivered']);
    expect(stream.lastEventId).toMatch(/^evt_/);
    // Aborting closed the connection on the server too.
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it('receives only the event types it asked for, typed by the filter', async () => {
    const opened = signal();
    const stream = client.events.stream({ events: ['message.read'], onOpen: opened.resolve });
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next();
    await opened.promise;
    const sent = await client.messages.send({ to: '+12125550105', content: { text: 'Read me' } });

    const result = await first;
    await iterator.return?.();
    expect(result.done).toBe(false);
    const event = result.value;
    if (event === undefined || result.done) throw new Error('the stream ended');
    // Type-level check: the filter narrowed the union to message.read.
    const type: 'message.read' = event.type;
    expect(type).toBe('message.read');
    expect(event.data.messageId).toBe(sent.id);
    expect(event.data.status).toBe('read');
    await expect.poll(() => server.openStreams()).toBe(0);
  });

  it('calls onOpen once per connection, after the server subscribed it', async () => {
    const opens: number[] = [];
    const controller = new AbortController();
    const stream = client.events.stream({
      signal: controller.signal,
      onOpen: () => {
        opens.push(server.openStreams());
        controller.abort();
      },
    });
    const received = [];
    for await (const event of stream) received.push(event);
    expect(opens).toEqual([1]);
    expect(received).toEqual([]);
  });

  it('ends with the error onOpen threw, without reconnecting', async () => {
    const stream = client.events.stream({
      onOpen: () => {
        throw new Error('handler bug');
      },
    });
    const error = await (async () => {
      for await (const _ of stream) {
        // nothing arrives before onOpen throws
      }
    })().catch((caught: unknown) => caught);
    expect(error).toEqual(new Error('handler bug'));
    await expect.poll(() => server.openStreams()).toBe(0);
  });
});

describe('client.events.stream resuming', () => {
  it('gets the events recorded while it was away, then the live ones, from lastEventId', async () => {
    // A first stream sees one event, then goes away.
    const first = new AbortController();
    const opened = signal();
    const stream = client.events.stream({ signal: first.signal, onOpen: opened.resolve });
    const iterator = stream[Symbol.asyncIterator]();
    const next = iterator.next();
    await opened.promise;
    await client.messages.send({ to: '+12125550106', content: { text: 'Before' } });
    await next;
    await iterator.return?.();
    const resumeAfter = stream.lastEventId;
    expect(resumeAfter).toMatch(/^evt_/);

    // Sent while nobody listens.
    const missed = await client.messages.send({ to: '+12125550107', content: { text: 'Missed' } });
    await expect
      .poll(async () => (await client.messages.get(missed.id)).status, { timeout: 5_000 })
      .toMatch(/delivered|read/);

    const again = new AbortController();
    const gaps: unknown[] = [];
    const seen: string[] = [];
    for await (const event of client.events.stream({
      signal: again.signal,
      lastEventId: resumeAfter,
      onGap: (gap) => gaps.push(gap),
    })) {
      if (messageIdOf(event) === missed.id) seen.push(event.type);
      if (event.type === 'message.delivered' && messageIdOf(event) === missed.id) again.abort();
    }
    expect(seen.slice(0, 3)).toEqual(['message.queued', 'message.sent', 'message.delivered']);
    expect(gaps).toEqual([]);
  });

  it('says when it cannot resume (onGap), and goes on with the live events', async () => {
    const controller = new AbortController();
    const gaps: Array<{ reason: string }> = [];
    const opened = signal();
    const stream = client.events.stream({
      signal: controller.signal,
      lastEventId: 'evt_00000000-0000-7000-8000-000000000000',
      onGap: (gap) => gaps.push(gap),
      onOpen: opened.resolve,
    });
    const iterator = stream[Symbol.asyncIterator]();
    const next = iterator.next();
    await opened.promise;
    const sent = await client.messages.send({ to: '+12125550108', content: { text: 'Live' } });
    const result = await next;
    await iterator.return?.();
    expect(gaps).toEqual([
      expect.objectContaining({ type: 'stream.gap', reason: 'unknown_event' }),
    ]);
    expect(result.value && messageIdOf(result.value)).toBe(sent.id);
  });
});
