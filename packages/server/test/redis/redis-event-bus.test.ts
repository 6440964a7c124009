import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock';
import type { RecordedEvent } from '../../src/events/event-recorder';
import { toRecorded } from '../../src/events/event-service';
import { RedisConnection } from '../../src/redis/redis-connection';
import { RedisEventBus } from '../../src/redis/redis-event-bus';
import type { EventRecord } from '../../src/store/event-repository';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/test-app';
import { waitFor } from '../support/wait-for';

// A real Redis on loopback (CI starts one) and a real SQLite event log.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { warn: () => undefined, info: () => undefined };

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

/** A committed event of customer `c1`, made now. */
function eventNow(): EventRecord {
  const id = `evt_${randomUUID()}`;
  return {
    id,
    customerId: 'c1',
    type: 'message.sent',
    payload: JSON.stringify({ id }),
    correlationId: 'cor_0123456789abcdef0123456789abcdef',
    messageId: null,
    callbackUrl: null,
    createdAt: new Date(),
  };
}

describe('the Redis event bus with the event log tail', () => {
  it('hands on an event once when the tail read it before its own commit published it', async () => {
    const store = openSqliteStore(join(tempDir(), 'bus.sqlite'));
    const redis = new RedisConnection(REDIS_URL, quiet);
    cleanups.push(
      () => store.close(),
      () => redis.close(),
    );
    expect(await redis.ready(2000)).toBe(true);
    await store.customers.insert({
      id: 'c1',
      name: 'Acme',
      settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
      createdAt: new Date(),
    });
    const prefix = `switchboard-test:${randomUUID()}:`;
    const log = { events: store.events, clock: systemClock, intervalMs: 10 };
    const here = new RedisEventBus(redis, prefix, quiet, log);
    // Another process, without a tail: the event can only reach it through Redis.
    const elsewhere = new RedisEventBus(redis, prefix, quiet);
    cleanups.push(() => here.close());

    const seenHere: RecordedEvent[] = [];
    const seenElsewhere: RecordedEvent[] = [];
    cleanups.push(here.subscribe('c1', (event) => seenHere.push(event)));
    cleanups.push(elsewhere.subscribe('c1', (event) => seenElsewhere.push(event)));
    // Subscribed on Redis before anything is published.
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The transaction committed: the event is in the log, and the tail hands it on before the
    // committing code gets to publish it.
    const record = eventNow();
    await store.events.insert(record);
    await waitFor(() => seenHere.length > 0, 5000, 'the tail to hand the event on');
    here.publish(toRecorded(record));

    await waitFor(() => seenElsewhere.length > 0, 5000, 'the event through Redis');
    // Time for a repeat to arrive, from the tail's next looks or from Redis.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seenHere.map((event) => event.id)).toEqual([record.id]);
    expect(seenElsewhere.map((event) => event.id)).toEqual([record.id]);
  });
});
