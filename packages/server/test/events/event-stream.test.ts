import { get, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RecordedEvent } from '../../src/events/event-recorder';
import { createCustomerWithKey } from '../support/admin-helpers';
import { bearer, bodyOf, loopbackOrigin } from '../support/test-app';
import {
  buildWebhookApp,
  createWebhook,
  lifecycleData,
  receiver,
  settle,
  TEST_CORRELATION_ID,
  type WebhookTestApp,
  waitFor,
} from '../webhooks/webhook-test-support';

/** A live SSE client over a real HTTP connection. */
interface StreamClient {
  response: IncomingMessage;
  events: EventSourceMessage[];
  comments: string[];
  /** Raw bytes received, to compare with webhook bodies. */
  raw: () => string;
  ended: Promise<void>;
  close: () => void;
}

function openStream(
  origin: string,
  key: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const request = get(`${origin}/v1/events${query}`, {
      headers: { ...bearer(key), accept: 'text/event-stream', ...headers },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const events: EventSourceMessage[] = [];
      const comments: string[] = [];
      let raw = '';
      const parser = createParser({
        onEvent: (event) => events.push(event),
        onComment: (comment) => comments.push(comment.trim()),
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        raw += chunk;
        parser.feed(chunk);
      });
      const ended = new Promise<void>((done) => {
        response.once('close', () => done());
      });
      response.on('error', () => undefined);
      const client: StreamClient = {
        response,
        events,
        comments,
        raw: () => raw,
        ended,
        close: () => request.destroy(),
      };
      onTestFinished(() => client.close());
      resolve(client);
    });
  });
}

function record(
  testApp: WebhookTestApp,
  type: 'message.sent' | 'message.inbound' | 'message.delivered',
  customerId = testApp.customerId,
): Promise<RecordedEvent> {
  const { app } = testApp;
  return app.store.transaction((tx) => {
    if (type === 'message.inbound') {
      return app.services.events.record(tx, {
        customerId,
        type,
        correlationId: TEST_CORRELATION_ID,
        data: {
          messageId: 'msg_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
          externalMessageId: null,
          from: '+14155550123',
          to: '+14155550100',
          text: 'hi',
          channel: 'sms',
          attachments: [],
        },
      });
    }
    return app.services.events.record(tx, {
      customerId,
      type,
      correlationId: TEST_CORRELATION_ID,
      data: lifecycleData({ status: type === 'message.sent' ? 'sent' : 'delivered' }),
    });
  });
}

async function keyOf(testApp: WebhookTestApp): Promise<string> {
  return testApp.auth.authorization.replace('Bearer ', '');
}

describe('GET /v1/events', () => {
  it('streams each event to several subscribers of one key, as id/event/data frames', async () => {
    const testApp = await buildWebhookApp();
    const origin = await loopbackOrigin(testApp.app);
    const key = await keyOf(testApp);
    const hook = await receiver();
    await createWebhook(testApp.app, testApp.auth, { url: `${hook.origin}/h`, events: ['*'] });
    const a = await openStream(origin, key, '', { 'x-request-id': 'stream-a' });
    const b = await openStream(origin, key);
    expect(a.response.statusCode).toBe(200);
    expect(a.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(a.response.headers['cache-control']).toContain('no-cache');
    expect(a.response.headers['x-request-id']).toBe('stream-a');
    expect(a.response.headers['x-correlation-id']).toMatch(/^cor_[0-9a-f]{32}$/);
    expect(a.response.headers['x-ratelimit-limit']).toBeDefined();

    const sent = await record(testApp, 'message.sent');
    const inbound = await record(testApp, 'message.inbound');
    for (const client of [a, b]) {
      await waitFor(() => client.events.length === 2);
      expect(client.events.map((event) => [event.id, event.event, event.data])).toEqual([
        [sent.id, 'message.sent', sent.payload],
        [inbound.id, 'message.inbound', inbound.payload],
      ]);
    }
    // The data line carries the same bytes a webhook receives.
    await waitFor(() => hook.requests.length === 2);
    const webhookBodies = hook.requests.map((request) => request.body.toString('utf8')).sort();
    expect(a.events.map((event) => event.data).sort()).toEqual(webhookBodies);
    expect(a.raw()).toContain(`id: ${sent.id}\nevent: message.sent\ndata: ${sent.payload}\n\n`);
  });

  it('filters by the events query, and sends whatsapp.status (stream only)', async () => {
    const testApp = await buildWebhookApp();
    const origin = await loopbackOrigin(testApp.app);
    const key = await keyOf(testApp);
    const filtered = await openStream(origin, key, '?events=message.inbound,whatsapp.status');
    const all = await openStream(origin, key, '?events=*');
    await record(testApp, 'message.sent');
    const inbound = await record(testApp, 'message.inbound');
    const status = await testApp.app.store.transaction((tx) =>
      testApp.app.services.events.record(tx, {
        customerId: testApp.customerId,
        type: 'whatsapp.status',
        correlationId: TEST_CORRELATION_ID,
        data: {
          phoneNumber: '+14155550100',
          status: 'connected',
          jid: '14155550100@s.whatsapp.net',
          customerId: testApp.customerId,
        },
      }),
    );
    await waitFor(() => all.events.length === 3);
    await waitFor(() => filtered.events.length === 2);
    await settle(50);
    expect(filtered.events.map((event) => event.id)).toEqual([inbound.id, status.id]);
    expect(all.events.map((event) => event.event)).toEqual([
      'message.sent',
      'message.inbound',
      'whatsapp.status',
    ]);
  });

  it('uses eventId as the frame id of the flat FaceTime bodies', async () => {
    const testApp = await buildWebhookApp();
    const client = await openStream(await loopbackOrigin(testApp.app), await keyOf(testApp));
    const call = await testApp.app.store.transaction((tx) =>
      testApp.app.services.events.record(tx, {
        customerId: testApp.customerId,
        type: 'facetime.status_changed',
        correlationId: TEST_CORRELATION_ID,
        callUuid: 'call-1',
        to: '+14155550100',
        isAudio: false,
        isVideo: true,
        address: '+14155550123',
        status: 'answered',
        isOutgoing: false,
      }),
    );
    await waitFor(() => client.events.length === 1);
    expect(client.events[0]?.id).toBe(call.id);
    expect(JSON.parse(client.events[0]?.data ?? '{}')).toMatchObject({
      eventId: call.id,
      type: 'facetime.status_changed',
    });
  });

  it('never sends one customer the events of another', async () => {
    const testApp = await buildWebhookApp();
    const origin = await loopbackOrigin(testApp.app);
    const other = await createCustomerWithKey(testApp.app, 'Other');
    const mine = await openStream(origin, await keyOf(testApp));
    const theirs = await openStream(origin, other.key);
    const event = await record(testApp, 'message.sent');
    const theirEvent = await record(testApp, 'message.sent', other.customer.id);
    await waitFor(() => mine.events.length === 1 && theirs.events.length === 1);
    await settle(50);
    expect(mine.events.map((e) => e.id)).toEqual([event.id]);
    expect(theirs.events.map((e) => e.id)).toEqual([theirEvent.id]);
  });

  it('replays nothing, and never streams an event whose transaction rolled back', async () => {
    const testApp = await buildWebhookApp();
    const origin = await loopbackOrigin(testApp.app);
    await record(testApp, 'message.sent');
    const client = await openStream(origin, await keyOf(testApp));
    await expect(
      testApp.app.store.transaction(async (tx) => {
        await testApp.app.services.events.record(tx, {
          customerId: testApp.customerId,
          type: 'message.delivered',
          correlationId: TEST_CORRELATION_ID,
          data: lifecycleData({ status: 'delivered' }),
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const after = await record(testApp, 'message.inbound');
    await waitFor(() => client.events.length === 1);
    await settle(50);
    expect(client.events.map((event) => event.id)).toEqual([after.id]);
  });

  it('sends a heartbeat comment every SSE_HEARTBEAT_MS', async () => {
    const testApp = await buildWebhookApp({ env: { SSE_HEARTBEAT_MS: '30' } });
    const client = await openStream(await loopbackOrigin(testApp.app), await keyOf(testApp));
    await waitFor(() => client.comments.filter((comment) => comment === 'heartbeat').length >= 3);
    expect(client.raw()).toContain(': heartbeat\n\n');
  });

  it('answers 400 VALIDATION_ERROR for an unknown type, and 401 without a key', async () => {
    const testApp = await buildWebhookApp();
    const bad = await testApp.app.inject({
      method: 'GET',
      url: '/v1/events?events=message.sent,message.teleported',
      headers: testApp.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(bodyOf<{ error: { code: string; message: string } }>(bad).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('message.teleported'),
    });
    expect(bad.headers['x-request-id']).toBeDefined();
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/v1/events' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('disconnects a reader that stops reading, and memory stays flat', async () => {
    // The process's own bus: this measures what the stream holds, not Redis' publish buffers.
    const testApp = await buildWebhookApp({
      env: { SSE_MAX_BUFFER_BYTES: '262144' },
      redis: false,
    });
    const origin = new URL(await loopbackOrigin(testApp.app));
    const key = await keyOf(testApp);
    // A raw client that sends the request and then never reads.
    const socket = connect(Number(origin.port), origin.hostname);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `GET /v1/events HTTP/1.1\r\nHost: ${origin.host}\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    await waitFor(() => testApp.app.services.eventStreams.size === 1);
    socket.pause();

    // Every event is ~10 KB; 4,000 of them is ~40 MB offered to a reader that takes none.
    const big = await testApp.app.store.transaction((tx) =>
      testApp.app.services.events.record(tx, {
        customerId: testApp.customerId,
        type: 'message.sent',
        correlationId: TEST_CORRELATION_ID,
        data: lifecycleData({ text: 'x'.repeat(10_000) }),
      }),
    );
    const before = process.memoryUsage();
    for (let index = 0; index < 4000; index += 1) {
      testApp.app.services.events.bus.publish(big);
      if (index % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const after = process.memoryUsage();
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    // Without the limit the server would hold the ~40 MB the reader did not take.
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    await waitFor(
      () => testApp.app.services.eventStreams.size === 0,
      5000,
      'the stalled stream to be cut',
    );
    socket.resume();
    await closed;
  });

  it('ends open streams when the server shuts down', async () => {
    const testApp = await buildWebhookApp();
    const client = await openStream(await loopbackOrigin(testApp.app), await keyOf(testApp));
    const started = Date.now();
    await testApp.app.close();
    await client.ended;
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('GET /v1/events with Last-Event-ID', () => {
  it('replays what was recorded after that event, then goes on live, each event once', async () => {
    const testApp = await buildWebhookApp();
    const origin = await loopbackOrigin(testApp.app);
    const key = await keyOf(testApp);
    const first = await openStream(origin, key);
    const seen = await record(testApp, 'message.sent');
    await waitFor(() => first.events.length === 1);
    first.close();
    // Recorded while nobody was connected (one of another customer's too).
    const other = await createCustomerWithKey(testApp.app, 'Other');
    const missedA = await record(testApp, 'message.delivered');
    await record(testApp, 'message.sent', other.customer.id);
    const missedB = await record(testApp, 'message.inbound');

    const resumed = await openStream(origin, key, '', { 'last-event-id': seen.id });
    await waitFor(() => resumed.events.length === 2);
    const live = await record(testApp, 'message.sent');
    await waitFor(() => resumed.events.length === 3);
    await settle();
    expect(resumed.events.map((event) => event.id)).toEqual([missedA.id, missedB.id, live.id]);
    expect(resumed.events[0]?.data).toBe(missedA.payload);

    // The filter applies to the replay too.
    const filtered = await openStream(origin, key, '?events=message.inbound', {
      'last-event-id': seen.id,
    });
    await waitFor(() => filtered.events.length === 1);
    await settle();
    expect(filtered.events.map((event) => event.id)).toEqual([missedB.id]);
  });

  it('sends a stream.gap frame for an id it cannot resume from, then the live events', async () => {
    const testApp = await buildWebhookApp({ env: { SSE_REPLAY_WINDOW_MS: '60000' } });
    const origin = await loopbackOrigin(testApp.app);
    const key = await keyOf(testApp);
    const old = await record(testApp, 'message.sent');
    testApp.clock.advance(61_000);

    const expired = await openStream(origin, key, '', { 'last-event-id': old.id });
    await waitFor(() => expired.events.length === 1);
    expect(expired.events[0]).toMatchObject({ event: 'stream.gap', id: undefined });
    expect(JSON.parse(expired.events[0]?.data ?? '{}')).toEqual({
      type: 'stream.gap',
      lastEventId: old.id,
      reason: 'outside_window',
      replayWindowSeconds: 60,
    });
    const live = await record(testApp, 'message.sent');
    await waitFor(() => expired.events.length === 2);
    expect(expired.events[1]?.id).toBe(live.id);

    const unknown = await openStream(origin, key, '', {
      'last-event-id': 'evt_00000000-0000-7000-8000-000000000000',
    });
    await waitFor(() => unknown.events.length === 1);
    expect(JSON.parse(unknown.events[0]?.data ?? '{}')).toMatchObject({ reason: 'unknown_event' });

    // Without the header nothing is replayed, as before.
    const plain = await openStream(origin, key);
    await settle();
    expect(plain.events).toEqual([]);
  });
});
