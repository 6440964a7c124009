import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/store/postgres/pg-store';
import type { Store } from '../../src/store/store';
import {
  assignNumber,
  createApiKey,
  createCustomerWithKey,
  createInstance,
} from '../support/admin-helpers';
import { completion, listeningPort, serverReady, spawnEntry } from '../support/child-process';
import { type EventStreamClient, openEventStream } from '../support/event-stream-client';
import { createTestDatabase, TEST_ENCRYPTION_KEY } from '../support/postgres-database';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import { ADMIN_TOKEN, buildTestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const REDIS_URL = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONTACT = '+14155550123';
const RATE_LIMIT = 100;
const SENDS = 45;
const FINAL = new Set(['delivered', 'failed', 'read']);

/** An event's id (flat events, FaceTime's, name it `eventId`). */
function eventIdOf(event: object): string {
  return 'id' in event ? String(event.id) : String((event as { eventId?: unknown }).eventId);
}

/** A server process of the deployment, and its output so far. */
interface ServerProcess {
  child: ChildProcess;
  origin: string;
  output: Promise<{ stdout: string; stderr: string }>;
}

/** Starts `src/main.ts` as a real process on the shared database and Redis. */
async function startProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawnEntry('src/main.ts', [], env);
  const output = completion(child);
  const ready = serverReady(child);
  const port = await listeningPort(child);
  await ready;
  return { child, origin: `http://127.0.0.1:${port}`, output };
}

/** A webhook receiver on loopback recording every delivery's event id and type. */
async function startReceiver(): Promise<{
  server: Server;
  url: string;
  seen: Array<{ id: string; type: string }>;
}> {
  const seen: Array<{ id: string; type: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const event = JSON.parse(body) as { type: string };
      seen.push({ id: eventIdOf(event), type: event.type });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}/hook`, seen };
}

/** POSTs a send through the proxy until some process answers it (same Idempotency-Key each time). */
async function sendUntilAnswered(origin: string, key: string, body: object): Promise<string> {
  const idempotencyKey = randomUUID();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`${origin}/v1/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
    }).catch(() => undefined);
    if (response && (response.status === 202 || response.status === 200)) {
      return ((await response.json()) as { data: { id: string } }).data.id;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no process accepted the send');
}

describe('three server processes on one PostgreSQL and one Redis', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('shares sends, streams, the schedule, webhooks and the rate limit; a SIGKILL loses and doubles nothing', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const receiver = await startReceiver();
    cleanups.push(() => new Promise((resolve) => receiver.server.close(resolve)));

    // The operator's setup, made once on the shared database.
    const seed = await buildTestApp({
      env: {
        DATABASE_URL: database.url,
        SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      },
    });
    const instance = await createInstance(seed.app);
    const { customer, key } = await createCustomerWithKey(seed.app, 'Acme');
    await assignNumber(seed.app, customer.id, {
      phoneNumber: '+14155550100',
      instanceId: instance.id,
      isDefault: true,
    });
    const limitedKey = (await createApiKey(seed.app, customer.id)).key;
    const webhook = await seed.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { authorization: `Bearer ${key}` },
      payload: { url: receiver.url, events: ['*'] },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    await seed.close();

    const env = {
      DATABASE_URL: database.url,
      SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
      REDIS_URL,
      REDIS_KEY_PREFIX: `test-${randomUUID()}:`,
      PORT: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      SIMULATOR_STEP_MS: '300',
      SCHEDULER_INTERVAL_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '2000',
      MESSAGE_TAKEOVER_AFTER_MS: '2000',
    };
    const processes = await Promise.all([startProcess(env), startProcess(env), startProcess(env)]);
    cleanups.push(async () => {
      for (const server of processes) server.child.kill('SIGKILL');
    });
    const proxy = new RoundRobinProxy(processes.map((server) => server.origin));
    await proxy.listen();
    cleanups.push(() => proxy.close());
    const store: Store = await openPgStore(database.url, { encryptionKey: TEST_ENCRYPTION_KEY });
    cleanups.push(() => store.close());

    // A stream on each process; the first and the last live through the whole test.
    const streams: EventStreamClient[] = [];
    for (const server of processes) streams.push(await openEventStream(server.origin, key));
    // Subscribed on Redis before anything is sent (the bus subscribes per customer on demand).
    await new Promise((resolve) => setTimeout(resolve, 300));

    const scheduledAt = new Date(Date.now() + 3000).toISOString();
    const scheduled = await sendUntilAnswered(proxy.origin, key, {
      to: CONTACT,
      content: { text: 'scheduled' },
      scheduledAt,
    });

    // The load, five at a time; in the fourth batch, one process dies mid-flight (sends it
    // accepted are still on their way to the simulated phone, others are being accepted).
    const accepted: string[] = [];
    const victim = processes[1] as ServerProcess;
    for (let batch = 0; batch < SENDS / 5; batch += 1) {
      const sends = Array.from({ length: 5 }, (_, index) =>
        sendUntilAnswered(proxy.origin, key, {
          to: CONTACT,
          content: { text: `load ${batch * 5 + index}` },
        }),
      );
      if (batch === 3) {
        await Promise.race(sends);
        victim.child.kill('SIGKILL');
        proxy.upstreams = proxy.upstreams.filter((origin) => origin !== victim.origin);
      }
      accepted.push(...(await Promise.all(sends)));
    }
    expect(new Set(accepted).size).toBe(SENDS);
    // A supervisor starts the dead process again.
    const restarted = await startProcess(env);
    processes[1] = restarted;
    proxy.upstreams.push(restarted.origin);

    // The rate limit holds across processes: exactly RATE_LIMIT of a burst pass.
    const statuses = await Promise.all(
      Array.from({ length: RATE_LIMIT + 10 }, () =>
        fetch(`${proxy.origin}/v1/numbers`, {
          headers: { authorization: `Bearer ${limitedKey}` },
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);

    // Every accepted message, and the scheduled one, reaches a final status.
    const all = [...accepted, scheduled];
    await waitFor(
      async () => {
        for (const id of all) {
          const message = await store.messages.findByIdInAnyCustomer(id);
          if (!message || !FINAL.has(message.status)) return false;
        }
        return true;
      },
      60_000,
      'every accepted message to reach a final status',
    );
    for (const id of all) {
      expect((await store.messages.findByIdInAnyCustomer(id))?.status, id).toBe('delivered');
    }
    const listed = await store.messages.list(customer.id, { limit: 100 });
    expect(listed).toHaveLength(SENDS + 1);

    // Each message was sent once: one `message.sent` and one `message.delivered` event each.
    const logged = await store.events.listAfter(
      customer.id,
      { createdAt: new Date(0), id: '' },
      10_000,
    );
    for (const id of all) {
      const types = logged.filter((event) => event.messageId === id).map((event) => event.type);
      expect(
        types.filter((type) => type === 'message.sent'),
        id,
      ).toHaveLength(1);
      expect(
        types.filter((type) => type === 'message.delivered'),
        id,
      ).toHaveLength(1);
    }
    expect(
      logged.filter((event) => event.messageId === scheduled && event.type === 'message.queued'),
    ).toHaveLength(1);

    // Every event reaches the webhook; a repeat only where a dead process's attempt is made again.
    await waitFor(
      () => logged.every((event) => receiver.seen.some((seen) => seen.id === event.id)),
      30_000,
      'every event at the webhook',
    );
    const repeats = receiver.seen.length - new Set(receiver.seen.map((seen) => seen.id)).size;
    expect(repeats).toBeLessThanOrEqual(5);
    console.info(`three processes: ${logged.length} events, ${repeats} webhook repeats`);

    // The streams that lived through it saw every event of the customer, each once.
    const ids = new Set(logged.map((event) => event.id));
    for (const stream of [streams[0], streams[2]] as EventStreamClient[]) {
      await waitFor(
        () => [...ids].every((id) => stream.events.some((event) => eventIdOf(event) === id)),
        10_000,
        'every event on the stream',
      );
      const seen = stream.events.map(eventIdOf);
      expect(seen.length).toBe(new Set(seen).size);
    }
  }, 180_000);
});
