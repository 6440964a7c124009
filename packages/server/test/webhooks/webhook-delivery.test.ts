import { Webhook } from 'standardwebhooks';
import { describe, expect, it, onTestFinished } from 'vitest';
import { InProcessEventBus } from '../../src/events/event-bus';
import { EventService } from '../../src/events/event-service';
import { adminHeaders, createCustomerWithKey } from '../support/admin-helpers';
import { completion, serverReady, spawnEntry } from '../support/child-process';
import { bearer, bodyOf, buildTestApp } from '../support/test-app';
import {
  buildWebhookApp,
  call,
  createWebhook,
  deliveriesOf,
  FAST_DELIVERY_ENV,
  lifecycleData,
  receiver,
  recordSent,
  settle,
  signatureIsValid,
  TEST_CORRELATION_ID,
  waitFor,
} from './webhook-test-support';

describe('signed delivery', () => {
  it('POSTs the recorded bytes, signed over "<timestamp>.<raw body>" with the webhook secret', async () => {
    const testApp = await buildWebhookApp();
    const { app, auth, clock } = testApp;
    const hook = await receiver();
    const webhook = await createWebhook(app, auth, {
      url: `${hook.origin}/hooks?source=switchboard`,
      events: ['message.sent'],
    });
    const event = await recordSent(testApp, { text: 'héllo ✓ "quoted"' });
    const [request] = await waitFor(() => hook.requests.length === 1 && hook.requests);
    if (!request) throw new Error('no request');
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks?source=switchboard');
    // Byte for byte the recorded payload: no re-serialization between recording and sending.
    expect(request.body.equals(Buffer.from(event.payload, 'utf8'))).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    expect(request.headers['x-correlation-id']).toBe(TEST_CORRELATION_ID);
    expect(request.headers['x-event-id']).toBe(event.id);
    expect(request.headers['x-event-type']).toBe('message.sent');
    expect(request.headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signatureIsValid(webhook.secret ?? '', request.headers, request.body)).toBe(true);
    expect(signatureIsValid('whsec_wrong', request.headers, request.body)).toBe(false);
    const [logged] = await waitFor(async () => {
      const rows = await deliveriesOf(app, auth, webhook.id);
      return rows[0]?.status !== 'pending' && rows;
    });
    expect(logged).toMatchObject({
      eventId: event.id,
      attempt: 1,
      trigger: 'event',
      status: 'delivered',
      statusCode: 200,
    });
  });

  it('carries the Standard Webhooks headers, which the standardwebhooks library verifies as they are', async () => {
    // The library checks the timestamp against the real clock.
    const testApp = await buildWebhookApp({ startAt: Date.now() });
    const { app, auth } = testApp;
    const hook = await receiver();
    const webhook = await createWebhook(app, auth, {
      url: `${hook.origin}/hooks`,
      events: ['message.sent'],
    });
    const event = await recordSent(testApp, { text: 'standard' });
    const [request] = await waitFor(() => hook.requests.length === 1 && hook.requests);
    if (!request) throw new Error('no request');
    expect(request.headers['webhook-id']).toBe(event.id);
    expect(request.headers['webhook-timestamp']).toBe(request.headers['x-timestamp']);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    const verified = new Webhook(webhook.secret ?? '', { format: 'raw' }).verify(
      request.body.toString('utf8'),
      headers,
    );
    expect(verified).toMatchObject({ id: event.id, type: 'message.sent' });
    expect(() =>
      new Webhook('whsec_wrong', { format: 'raw' }).verify(request.body.toString('utf8'), headers),
    ).toThrow();
  });

  it('fans out to every active subscribed webhook of the customer, and to the callbackUrl', async () => {
    const testApp = await buildWebhookApp();
    const { app, auth } = testApp;
    const hook = await receiver();
    const all = await createWebhook(app, auth, { url: `${hook.origin}/all`, events: ['*'] });
    await createWebhook(app, auth, { url: `${hook.origin}/sent`, events: ['message.sent'] });
    await createWebhook(app, auth, { url: `${hook.origin}/inbound`, events: ['message.inbound'] });
    const paused = await createWebhook(app, auth, { url: `${hook.origin}/paused`, events: ['*'] });
    await call(app, auth, 'PATCH', `/v1/webhooks/${paused.id}`, { active: false });
    const other = await createCustomerWithKey(app, 'Other');
    await createWebhook(app, bearer(other.key), { url: `${hook.origin}/other`, events: ['*'] });

    const event = await recordSent(testApp, { callbackUrl: `${hook.origin}/callback` });
    await waitFor(() => hook.requests.length >= 3);
    await settle();
    expect(hook.requests.map((request) => request.path).sort()).toEqual([
      '/all',
      '/callback',
      '/sent',
    ]);
    for (const request of hook.requests) {
      expect(request.body.toString('utf8')).toBe(event.payload);
    }
    // A callbackUrl is signed with the customer's callback secret, which starts as the secret of
    // its oldest active webhook.
    const callback = hook.requests.find((request) => request.path === '/callback');
    expect(callback && signatureIsValid(all.secret ?? '', callback.headers, callback.body)).toBe(
      true,
    );
  });

  it('never sends whatsapp.status to a webhook or a callbackUrl', async () => {
    const { app, auth, customerId } = await buildWebhookApp();
    const hook = await receiver();
    await createWebhook(app, auth, { url: `${hook.origin}/all`, events: ['*'] });
    await app.store.transaction((tx) =>
      app.services.events.record(tx, {
        customerId,
        type: 'whatsapp.status',
        correlationId: TEST_CORRELATION_ID,
        callbackUrl: `${hook.origin}/callback`,
        data: { phoneNumber: '+14155550100', status: 'connecting', customerId },
      }),
    );
    await settle();
    expect(hook.requests).toEqual([]);
  });
});

describe('outbox atomicity', () => {
  it('never delivers an event whose transaction rolled back', async () => {
    const testApp = await buildWebhookApp();
    const { app, auth, customerId } = testApp;
    const hook = await receiver();
    await createWebhook(app, auth, { url: `${hook.origin}/all`, events: ['*'] });
    await expect(
      app.store.transaction(async (tx) => {
        await app.services.events.record(tx, {
          customerId,
          type: 'message.sent',
          correlationId: TEST_CORRELATION_ID,
          callbackUrl: `${hook.origin}/callback`,
          data: lifecycleData(),
        });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    await settle();
    expect(hook.requests).toEqual([]);
    // The committed one after it still goes out.
    await recordSent(testApp);
    await waitFor(() => hook.requests.length === 1);
  });
});

describe('the retry chain', () => {
  it('retries 5xx, 408, 429, 3xx and network errors on the schedule, then delivers', async () => {
    const testApp = await buildWebhookApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s,4s,5s' } });
    const { app, auth, clock } = testApp;
    const answers = [500, 408, 429, 302];
    const hook = await receiver((_request, response) => {
      const status = answers.shift() ?? 200;
      response.writeHead(
        status,
        status === 302 ? { location: 'http://127.0.0.1:1/elsewhere' } : {},
      );
      response.end();
    });
    const webhook = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    const event = await recordSent(testApp);
    const start = clock.now();
    await waitFor(() => hook.requests.length === 1);

    // Each retry waits exactly its scheduled delay after the previous attempt.
    for (const [index, delay] of [1000, 2000, 3000, 4000].entries()) {
      // The next attempt is due `delay` after the previous one was recorded: move the clock only
      // once the dispatcher has recorded it, or the retry lands later than this test expects.
      await waitFor(
        async () =>
          (await deliveriesOf(app, auth, webhook.id)).filter((row) => row.status !== 'pending')
            .length >=
          index + 1,
      );
      clock.advance(delay - 1);
      await settle(80);
      expect(hook.requests, `retry ${index + 1} too early`).toHaveLength(index + 1);
      clock.advance(1);
      await waitFor(() => hook.requests.length === index + 2, 5000, `retry ${index + 1}`);
    }
    const log = await waitFor(async () => {
      const rows = await deliveriesOf(app, auth, webhook.id);
      return rows.at(-1)?.status === 'delivered' && rows;
    });
    expect(log.map((row) => [row.attempt, row.trigger, row.status, row.statusCode])).toEqual([
      [1, 'event', 'retrying', 500],
      [2, 'retry', 'retrying', 408],
      [3, 'retry', 'retrying', 429],
      [4, 'retry', 'retrying', 302],
      [5, 'retry', 'delivered', 200],
    ]);
    expect(log.every((row) => row.eventId === event.id)).toBe(true);
    expect(log[0]?.nextAttemptAt).toBe(new Date(start + 1000).toISOString());
    expect(log[3]?.error).toMatch(/redirect.*not followed/);
    // Every attempt carries the same body and is signed afresh.
    for (const request of hook.requests) {
      expect(request.body.toString('utf8')).toBe(event.payload);
      expect(signatureIsValid(webhook.secret ?? '', request.headers, request.body)).toBe(true);
    }
  });

  it('waits longer when Retry-After asks for it, never shorter', async () => {
    const testApp = await buildWebhookApp({ env: { WEBHOOK_RETRY_SCHEDULE: '100ms,10s' } });
    const { app, auth, clock } = testApp;
    let first = true;
    const hook = await receiver((_request, response) => {
      if (first) response.writeHead(503, { 'retry-after': '3' }).end();
      else response.writeHead(200).end();
      first = false;
    });
    const webhook = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    const start = clock.now();
    await recordSent(testApp);
    await waitFor(() => hook.requests.length === 1);
    const [retrying] = await waitFor(async () => {
      const rows = await deliveriesOf(app, auth, webhook.id);
      return rows[0]?.status === 'retrying' && rows;
    });
    expect(retrying?.nextAttemptAt).toBe(new Date(start + 3000).toISOString());
    clock.advance(2999);
    await settle(80);
    expect(hook.requests).toHaveLength(1);
    clock.advance(1);
    await waitFor(() => hook.requests.length === 2);
  });

  it('records a terminal 4xx once and never retries it nor counts it towards deactivation', async () => {
    const testApp = await buildWebhookApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
    const { app, auth, clock } = testApp;
    const hook = await receiver((_request, response) => response.writeHead(422).end('nope'));
    const webhook = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    for (let index = 0; index < 4; index += 1) await recordSent(testApp);
    await waitFor(() => hook.requests.length === 4);
    clock.advance(60_000);
    await settle();
    expect(hook.requests).toHaveLength(4);
    const log = await deliveriesOf(app, auth, webhook.id);
    expect(log.map((row) => [row.status, row.statusCode, row.nextAttemptAt])).toEqual(
      Array(4).fill(['failed', 422, null]),
    );
    const fetched = bodyOf<{ data: { active: boolean } }>(
      await call(app, auth, 'GET', `/v1/webhooks/${webhook.id}`),
    );
    expect(fetched.data.active).toBe(true);
  });

  it('deactivates after three consecutive exhausted chains, keeping registration and secret; a 2xx resets the streak', async () => {
    const testApp = await buildWebhookApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
    const { app, auth, clock } = testApp;
    let healthy = false;
    const hook = await receiver((_request, response) =>
      response.writeHead(healthy ? 200 : 500).end(),
    );
    const webhook = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    const active = async () =>
      bodyOf<{ data: { active: boolean } }>(
        await call(app, auth, 'GET', `/v1/webhooks/${webhook.id}`),
      ).data.active;

    /** One event whose chain (first attempt + one retry) ends exhausted. */
    const exhaustOneChain = async () => {
      const before = hook.requests.length;
      await recordSent(testApp);
      await waitFor(() => hook.requests.length === before + 1);
      await waitFor(async () =>
        (await deliveriesOf(app, auth, webhook.id)).some(
          (row) =>
            row.status === 'retrying' &&
            row.attempt === 1 &&
            row.nextAttemptAt !== null &&
            Date.parse(row.nextAttemptAt) > clock.now(),
        ),
      );
      clock.advance(1000);
      await waitFor(() => hook.requests.length === before + 2);
      await waitFor(async () =>
        (await deliveriesOf(app, auth, webhook.id)).every((row) => row.status !== 'pending'),
      );
    };

    await exhaustOneChain();
    await exhaustOneChain();
    expect(await active()).toBe(true);
    // A delivered event resets the streak.
    healthy = true;
    await recordSent(testApp);
    await waitFor(
      async () => (await deliveriesOf(app, auth, webhook.id)).at(-1)?.status === 'delivered',
    );
    healthy = false;
    await exhaustOneChain();
    await exhaustOneChain();
    expect(await active()).toBe(true);
    await exhaustOneChain();
    expect(await active()).toBe(false);
    const log = await deliveriesOf(app, auth, webhook.id);
    expect(log.filter((row) => row.attempt === 2 && row.status === 'failed')).toHaveLength(5);

    // Inactive: new events are not queued for it.
    const before = hook.requests.length;
    await recordSent(testApp);
    await settle();
    expect(hook.requests).toHaveLength(before);
    // Registration and secret kept: a test is still signed with the original secret.
    healthy = true;
    await call(app, auth, 'POST', `/v1/webhooks/${webhook.id}/test`);
    const last = hook.requests.at(-1);
    expect(last && signatureIsValid(webhook.secret ?? '', last.headers, last.body)).toBe(true);
    // Reactivating clears the streak: one more exhausted chain does not deactivate it.
    await call(app, auth, 'PATCH', `/v1/webhooks/${webhook.id}`, { active: true });
    healthy = false;
    await exhaustOneChain();
    expect(await active()).toBe(true);
  });

  it('cancels pending retries when the webhook is paused or deleted', async () => {
    const testApp = await buildWebhookApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
    const { app, auth, clock } = testApp;
    const hook = await receiver((_request, response) => response.writeHead(500).end());
    const paused = await createWebhook(app, auth, { url: `${hook.origin}/paused`, events: ['*'] });
    const deleted = await createWebhook(app, auth, {
      url: `${hook.origin}/deleted`,
      events: ['*'],
    });
    await recordSent(testApp);
    await waitFor(() => hook.requests.length === 2);
    await waitFor(async () => (await deliveriesOf(app, auth, paused.id)).length === 2);
    await call(app, auth, 'PATCH', `/v1/webhooks/${paused.id}`, { active: false });
    await call(app, auth, 'DELETE', `/v1/webhooks/${deleted.id}`);
    clock.advance(1000);
    await settle();
    expect(hook.requests).toHaveLength(2);
    const log = await deliveriesOf(app, auth, paused.id);
    expect(log.at(-1)).toMatchObject({
      attempt: 2,
      status: 'failed',
      error: expect.stringMatching(/inactive/),
    });
  });

  it('drops the pending deliveries of a deleted customer', async () => {
    const testApp = await buildWebhookApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
    const { app, auth, clock, customerId } = testApp;
    const hook = await receiver((_request, response) => response.writeHead(500).end());
    const webhook = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    await recordSent(testApp);
    await waitFor(() => hook.requests.length === 1);
    await waitFor(async () => (await deliveriesOf(app, auth, webhook.id)).length === 2);
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${customerId}`,
      headers: adminHeaders,
    });
    expect(deleted.statusCode).toBe(200);
    clock.advance(1000);
    await settle();
    expect(hook.requests).toHaveLength(1);
    const rows = await app.store.deliveries.listForWebhook(customerId, webhook.id, { limit: 10 });
    expect(rows[0]).toMatchObject({
      attempt: 2,
      status: 'failed',
      error: expect.stringMatching(/customer was deleted/),
    });
  });
});

describe('durability', () => {
  it('continues a chain where it stood after a restart', async () => {
    const env = { ...FAST_DELIVERY_ENV, WEBHOOK_RETRY_SCHEDULE: '1s,2s' };
    const first = await buildWebhookApp({ env });
    let healthy = false;
    const hook = await receiver((_request, response) =>
      response.writeHead(healthy ? 200 : 500).end(),
    );
    const webhook = await createWebhook(first.app, first.auth, {
      url: `${hook.origin}/h`,
      events: ['*'],
    });
    const event = await recordSent(first);
    await waitFor(() => hook.requests.length === 1);
    await waitFor(async () => (await deliveriesOf(first.app, first.auth, webhook.id)).length === 2);
    await first.app.close();

    // Same database file, new process; its clock starts where the first one's stood.
    healthy = true;
    const second = await buildTestApp({ dir: first.dir, env });
    await settle();
    expect(hook.requests).toHaveLength(1);
    second.clock.advance(1000);
    await waitFor(() => hook.requests.length === 2, 5000, 'the retry after the restart');
    expect(hook.requests[1]?.body.toString('utf8')).toBe(event.payload);
    // The receiver sees the request before the server has recorded its answer.
    const chain = async () =>
      (await deliveriesOf(second.app, first.auth, webhook.id)).map((row) => [
        row.attempt,
        row.trigger,
        row.status,
      ]);
    await waitFor(async () => (await chain()).at(-1)?.[2] !== 'pending');
    expect(await chain()).toEqual([
      [1, 'event', 'retrying'],
      [2, 'retry', 'delivered'],
    ]);
  });

  it('spreads overdue work after an outage instead of firing it in one burst', async () => {
    const env = { ...FAST_DELIVERY_ENV, WEBHOOK_RETRY_SCHEDULE: '1s' };
    const first = await buildWebhookApp({ env });
    let healthy = false;
    const hook = await receiver((_request, response) =>
      response.writeHead(healthy ? 200 : 500).end(),
    );
    await createWebhook(first.app, first.auth, { url: `${hook.origin}/h`, events: ['*'] });
    // Recorded an hour before the next process starts, so every retry is long overdue then.
    const restartAt = first.clock.now();
    first.clock.set(restartAt - 60 * 60 * 1000);
    for (let index = 0; index < 4; index += 1) await recordSent(first);
    await waitFor(() => hook.requests.length === 4);
    await settle();
    await first.app.close();

    healthy = true;
    const second = await buildTestApp({ dir: first.dir, env });
    expect(second.clock.now()).toBe(restartAt);
    await waitFor(() => hook.requests.length === 5);
    await settle();
    expect(hook.requests).toHaveLength(5);
    for (let released = 6; released <= 8; released += 1) {
      second.clock.advance(1000);
      await waitFor(() => hook.requests.length === released, 5000, `overdue attempt ${released}`);
    }
  });

  it('sends at once, after a restart, what a short outage left overdue (p99 delay well under 10 s)', async () => {
    const env = { ...FAST_DELIVERY_ENV, WEBHOOK_RETRY_SCHEDULE: '1s' };
    const first = await buildWebhookApp({ env });
    let healthy = false;
    const hook = await receiver((_request, response) =>
      response.writeHead(healthy ? 200 : 500).end(),
    );
    await createWebhook(first.app, first.auth, { url: `${hook.origin}/h`, events: ['*'] });
    const count = 120;
    for (let index = 0; index < count; index += 1) await recordSent(first);
    await waitFor(() => hook.requests.length === count, 10_000);
    await settle();
    await first.app.close();

    // The process was down for 3 seconds: every retry is 2 seconds overdue when it restarts.
    healthy = true;
    const restartAt = first.clock.now() + 3_000;
    const second = await buildTestApp({ dir: first.dir, env, startAt: restartAt });
    const started = Date.now();
    // The clock does not move: only attempts due now can go out, so each one went out at once.
    await waitFor(() => hook.requests.length === 2 * count, 10_000, 'every overdue retry');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(second.clock.now()).toBe(restartAt);
  });

  it('makes again an attempt whose worker died holding it, once its lease ran out', async () => {
    const testApp = await buildWebhookApp();
    const { app, auth, clock } = testApp;
    const hook = await receiver();
    const webhook = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    // Another process claims the attempt first, then crashes (it never records anything).
    const event = await app.store.transaction(async (tx) => {
      const recorded = await app.services.events.record(tx, {
        customerId: testApp.customerId,
        type: 'message.sent',
        correlationId: TEST_CORRELATION_ID,
        data: lifecycleData(),
      });
      const [pending] = await tx.deliveries.listForWebhook(testApp.customerId, webhook.id, {
        limit: 1,
      });
      if (!pending) throw new Error('no pending attempt');
      const now = new Date(clock.now());
      await tx.deliveries.claim(pending.id, 'crashed-worker', now, new Date(clock.now() + 60_000));
      return recorded;
    });
    await settle();
    expect(hook.requests).toEqual([]);
    clock.advance(60_000);
    await waitFor(() => hook.requests.length === 1);
    expect(hook.requests[0]?.body.toString('utf8')).toBe(event.payload);
  });

  it('never delivers an attempt twice when two processes share the database', async () => {
    const env = { ...FAST_DELIVERY_ENV, WEBHOOK_POLL_INTERVAL_MS: '10' };
    const first = await buildWebhookApp({ env });
    // Leases compare times across processes, which share the wall clock.
    first.clock.set(Date.now());
    const hook = await receiver((_request, response) => {
      setTimeout(() => response.writeHead(200).end(), 5);
    });
    await createWebhook(first.app, first.auth, { url: `${hook.origin}/a`, events: ['*'] });
    await createWebhook(first.app, first.auth, { url: `${hook.origin}/b`, events: ['*'] });
    const second = spawnEntry('src/main.ts', [], {
      ...env,
      PORT: '0',
      DATABASE_URL: first.databasePath,
      LOG_LEVEL: 'info',
    });
    const exited = completion(second);
    onTestFinished(async () => {
      second.kill('SIGTERM');
      await exited;
    });
    // Fully started: a server that holds the database's lock frees every lease as it starts.
    await serverReady(second);
    // Recorded without waking this process's dispatcher: both processes find the work by polling.
    const recorder = new EventService(first.clock, new InProcessEventBus());
    for (let index = 0; index < 30; index += 1) {
      await first.app.store.transaction((tx) =>
        recorder.record(tx, {
          customerId: first.customerId,
          type: 'message.sent',
          correlationId: TEST_CORRELATION_ID,
          data: lifecycleData(),
        }),
      );
    }
    await waitFor(() => hook.requests.length >= 60, 15_000, '60 deliveries');
    await settle(300);
    const seen = hook.requests.map((request) => `${request.path} ${request.headers['x-event-id']}`);
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
  });
});

describe('fairness', () => {
  it('a receiver that hangs on every request does not delay deliveries to another', async () => {
    const testApp = await buildWebhookApp({
      env: { WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_CONCURRENCY: '4' },
    });
    const { app, auth } = testApp;
    const hanging = await receiver(() => {
      // Never answers.
    });
    const healthy = await receiver();
    await createWebhook(app, auth, { url: `${hanging.origin}/h`, events: ['*'] });
    await createWebhook(app, auth, { url: `${healthy.origin}/h`, events: ['*'] });
    const started = Date.now();
    for (let index = 0; index < 20; index += 1) await recordSent(testApp);
    await waitFor(() => healthy.requests.length === 20, 10_000, 'every healthy delivery');
    // Far below the hanging receiver's 30 s deadline: nothing waited for it.
    expect(Date.now() - started).toBeLessThan(10_000);
    // The hanging receiver holds at most two slots.
    expect(hanging.requests.length).toBeLessThanOrEqual(2);
    await hanging.close();
  });
});
