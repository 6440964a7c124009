import { randomUUID } from 'node:crypto';
import type { SwitchboardEvent } from '@switchboard/contract';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createCustomerWithNumber, createInstance } from '../support/admin-helpers';
import { openEventStream } from '../support/event-stream-client';
import { bearer, buildTestApp, loopbackOrigin, type TestApp, tempDir } from '../support/test-app';
import { waitFor } from '../support/wait-for';

// A real Redis on loopback (CI starts one): these tests never skip. Each test uses keys and
// channels of its own prefix, so runs sharing the Redis do not meet.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const observer = new Redis(REDIS_URL);
afterAll(() => observer.disconnect());

const NUMBER = '+14155550100';

/** A server process on `dir`'s database and the shared Redis, under `prefix`. */
function server(dir: string, prefix: string, env: Record<string, string> = {}): Promise<TestApp> {
  return buildTestApp({
    dir,
    env: {
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      SIMULATOR_STEP_MS: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
}

/** Two server processes on one database and one Redis, with a customer and a number. */
async function twoServers(env: Record<string, string> = {}) {
  const dir = tempDir();
  const prefix = `switchboard-test:${randomUUID()}:`;
  const a = await server(dir, prefix, env);
  const instance = await createInstance(a.app);
  const { customerId, key } = await createCustomerWithNumber(a.app, 'Acme', NUMBER, instance.id);
  const b = await server(dir, prefix, env);
  return { a, b, prefix, customerId, key };
}

const send = (t: TestApp, key: string, text: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/messages',
    headers: bearer(key),
    payload: { to: '+14155550105', content: { text } },
  });

const queuedTexts = (events: readonly SwitchboardEvent[]) =>
  events.flatMap((event) =>
    event.type === 'message.queued' ? [(event.data as { text?: string }).text] : [],
  );

describe('several server processes sharing Redis', () => {
  it('deliver an event committed on one process to the streams of every process, each once', async () => {
    const { a, b, prefix, customerId, key } = await twoServers();
    const onA = await openEventStream(await loopbackOrigin(a.app), key);
    const onB = await openEventStream(await loopbackOrigin(b.app), key);
    const channel = `${prefix}events:${customerId}`;
    await waitFor(async () => {
      const [, subscribers] = (await observer.pubsub('NUMSUB', channel)) as [string, number];
      return subscribers >= 2 || undefined;
    });

    expect((await send(a, key, 'from A')).statusCode).toBe(202);
    expect((await send(b, key, 'from B')).statusCode).toBe(202);
    for (const stream of [onA, onB]) {
      await waitFor(() => (queuedTexts(stream.events).length >= 2 ? true : undefined));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const stream of [onA, onB]) {
      expect(queuedTexts(stream.events).sort()).toEqual(['from A', 'from B']);
      const ids = stream.events.map((event) => ('id' in event ? event.id : event.eventId));
      expect(new Set(ids).size).toBe(ids.length);
    }
    onA.close();
    onB.close();
  });

  it('share one rate limit: the limit per key holds across processes', async () => {
    const { a, b, key } = await twoServers({ RATE_LIMIT_PER_MINUTE: '4' });
    const statuses: number[] = [];
    for (const t of [a, b, a, b, a, b]) {
      statuses.push(
        (await t.app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('report Redis in /health', async () => {
    const { a } = await twoServers();
    const health = JSON.parse((await a.app.inject({ method: 'GET', url: '/health' })).body) as {
      status: string;
      checks: { redis: { status: string } };
    };
    expect(health.checks.redis).toEqual({ status: 'ok' });
    expect(health.status).toBe('ok');
  });
});

describe('a server whose Redis is unreachable', () => {
  it('keeps accepting sends, limits per process, streams its own events, and reports Redis down', async () => {
    const t = await server(tempDir(), `switchboard-test:${randomUUID()}:`, {
      REDIS_URL: 'redis://127.0.0.1:1',
      RATE_LIMIT_PER_MINUTE: '3',
    });
    const instance = await createInstance(t.app);
    const { key } = await createCustomerWithNumber(t.app, 'Acme', NUMBER, instance.id);
    const stream = await openEventStream(await loopbackOrigin(t.app), key);
    expect((await send(t, key, 'still accepted')).statusCode).toBe(202);
    await waitFor(() => (queuedTexts(stream.events).includes('still accepted') ? true : undefined));
    const health = JSON.parse((await t.app.inject({ method: 'GET', url: '/health' })).body) as {
      status: string;
      checks: { redis: { status: string } };
    };
    expect(health).toMatchObject({ status: 'degraded', checks: { redis: { status: 'down' } } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push(
        (await t.app.inject({ method: 'GET', url: '/v1/numbers', headers: bearer(key) }))
          .statusCode,
      );
    }
    // Opening the stream and the send were the first two of three in the window.
    expect(statuses).toEqual([200, 429, 429]);
    stream.close();
  });

  it('still brings another process’s events to a stream, from the event log, each once', async () => {
    const { a, b, key } = await twoServers({ REDIS_URL: 'redis://127.0.0.1:1' });
    const onB = await openEventStream(await loopbackOrigin(b.app), key);
    expect((await send(a, key, 'committed on A')).statusCode).toBe(202);
    expect((await send(b, key, 'committed on B')).statusCode).toBe(202);
    // The log is read every second: a few seconds at most.
    await waitFor(
      () => (queuedTexts(onB.events).length >= 2 ? true : undefined),
      5000,
      'both events on the stream of B',
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(queuedTexts(onB.events).sort()).toEqual(['committed on A', 'committed on B']);
    const ids = onB.events.map((event) => ('id' in event ? event.id : event.eventId));
    expect(new Set(ids).size).toBe(ids.length);
    onB.close();
  });
});
