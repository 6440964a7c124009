import { describe, expect, it } from 'vitest';
import { createCustomerWithKey } from '../support/admin-helpers';
import { bearer, bodyOf } from '../support/test-app';
import {
  buildWebhookApp,
  call,
  createWebhook,
  receiver,
  signatureIsValid,
  waitFor,
} from './webhook-test-support';

type Envelope<T = Record<string, unknown>> = { success: boolean; data: T };
type Failure = { success: false; error: { code: string; message: string } };

const UUID = '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f';

describe('POST /v1/webhooks', () => {
  it('registers a webhook and returns a generated whsec_ secret once', async () => {
    const { app, auth, clock } = await buildWebhookApp();
    const response = await call(app, auth, 'POST', '/v1/webhooks', {
      url: 'https://example.com/hooks',
      events: ['message.sent', 'message.failed'],
      name: 'Production',
    });
    expect(response.statusCode).toBe(201);
    const created = bodyOf<Envelope>(response).data;
    const at = new Date(clock.now()).toISOString();
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Production',
      url: 'https://example.com/hooks',
      events: ['message.sent', 'message.failed'],
      active: true,
      createdAt: at,
      updatedAt: at,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{32}$/),
    });
    const fetched = bodyOf<Envelope>(await call(app, auth, 'GET', `/v1/webhooks/${created.id}`));
    expect(fetched.data).not.toHaveProperty('secret');
    expect(fetched.data).toEqual({ ...created, secret: undefined });
  });

  it('stores a supplied secret without echoing it, and defaults name to null', async () => {
    const { app, auth } = await buildWebhookApp();
    const response = await call(app, auth, 'POST', '/v1/webhooks', {
      url: 'https://example.com/hooks',
      events: ['*'],
      secret: 'my-own-signing-secret-0123456789',
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).not.toContain('my-own-signing-secret');
    expect(bodyOf<Envelope>(response).data).toMatchObject({ name: null, events: ['*'] });
    expect(bodyOf<Envelope>(response).data).not.toHaveProperty('secret');
  });

  it.each([
    ['no url', { events: ['*'] }, /url/],
    ['no events', { url: 'https://example.com' }, /events/],
    ['empty events', { url: 'https://example.com', events: [] }, /events/],
    [
      'unknown event',
      { url: 'https://example.com', events: ['message.teleported'] },
      /events\[0\]/,
    ],
    ['whatsapp.status', { url: 'https://example.com', events: ['whatsapp.status'] }, /events\[0\]/],
    ['* with others', { url: 'https://example.com', events: ['*', 'message.sent'] }, /events/],
    ['name too long', { url: 'https://example.com', events: ['*'], name: 'x'.repeat(101) }, /name/],
    ['short secret', { url: 'https://example.com', events: ['*'], secret: 'short' }, /secret/],
    ['unknown field', { url: 'https://example.com', events: ['*'], colour: 'red' }, /colour|body/],
    ['relative url', { url: '/hooks', events: ['*'] }, /url/],
  ])('answers 400 VALIDATION_ERROR naming the field: %s', async (_case, payload, field) => {
    const { app, auth } = await buildWebhookApp();
    const response = await call(app, auth, 'POST', '/v1/webhooks', payload);
    expect(response.statusCode).toBe(400);
    const { error } = bodyOf<Failure>(response);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(field);
  });

  it('answers 409 WEBHOOK_DUPLICATE for the same url and event set among active webhooks', async () => {
    const { app, auth } = await buildWebhookApp();
    const first = await createWebhook(app, auth, {
      url: 'https://example.com/hooks',
      events: ['message.sent', 'message.failed'],
    });
    const again = await call(app, auth, 'POST', '/v1/webhooks', {
      url: 'https://example.com/hooks',
      events: ['message.failed', 'message.sent'],
    });
    expect(again.statusCode).toBe(409);
    expect(bodyOf<Failure>(again).error.code).toBe('WEBHOOK_DUPLICATE');
    // Another event set, or another URL, is a different registration.
    await createWebhook(app, auth, { url: 'https://example.com/hooks', events: ['message.sent'] });
    await createWebhook(app, auth, {
      url: 'https://example.com/other',
      events: ['message.sent', 'message.failed'],
    });
    // Once the first is paused, the same pair can be registered again.
    await call(app, auth, 'PATCH', `/v1/webhooks/${first.id}`, { active: false });
    await createWebhook(app, auth, {
      url: 'https://example.com/hooks',
      events: ['message.sent', 'message.failed'],
    });
  });

  it('scopes uniqueness to the customer', async () => {
    const { app, auth } = await buildWebhookApp();
    const other = await createCustomerWithKey(app, 'Other');
    const body = { url: 'https://example.com/hooks', events: ['*'] };
    await createWebhook(app, auth, body);
    await createWebhook(app, bearer(other.key), body);
  });

  it('requires an API key', async () => {
    const { app } = await buildWebhookApp();
    const response = await app.inject({ method: 'GET', url: '/v1/webhooks/list' });
    expect(response.statusCode).toBe(401);
    expect(bodyOf<Failure>(response).error.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /v1/webhooks/list and /v1/webhooks/{id}', () => {
  it('lists every webhook, active or not, oldest first, without secrets', async () => {
    const { app, auth, clock } = await buildWebhookApp();
    const a = await createWebhook(app, auth, { url: 'https://a.example.com', events: ['*'] });
    clock.advance(1000);
    const b = await createWebhook(app, auth, { url: 'https://b.example.com', events: ['*'] });
    await call(app, auth, 'PATCH', `/v1/webhooks/${a.id}`, { active: false });
    const response = await call(app, auth, 'GET', '/v1/webhooks/list');
    expect(response.statusCode).toBe(200);
    const list = bodyOf<Envelope<Array<Record<string, unknown>>>>(response).data;
    expect(list.map((webhook) => [webhook.id, webhook.active])).toEqual([
      [a.id, false],
      [b.id, true],
    ]);
    expect(response.body).not.toContain('whsec_');
  });

  it('never shows another customer its webhooks', async () => {
    const { app, auth } = await buildWebhookApp();
    const other = await createCustomerWithKey(app, 'Other');
    const mine = await createWebhook(app, auth, { url: 'https://a.example.com', events: ['*'] });
    const theirs = bearer(other.key);
    expect(
      bodyOf<Envelope<unknown[]>>(await call(app, theirs, 'GET', '/v1/webhooks/list')).data,
    ).toEqual([]);
    for (const [method, url, payload] of [
      ['GET', `/v1/webhooks/${mine.id}`],
      ['PATCH', `/v1/webhooks/${mine.id}`, { name: 'stolen' }],
      ['DELETE', `/v1/webhooks/${mine.id}`],
      ['POST', `/v1/webhooks/${mine.id}/test`],
      ['POST', `/v1/webhooks/${mine.id}/rotate-secret`],
      ['GET', `/v1/webhooks/${mine.id}/deliveries`],
      ['POST', `/v1/webhooks/${mine.id}/deliveries/${UUID}/redeliver`],
    ] as const) {
      const response = await call(app, theirs, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(bodyOf<Failure>(response).error.code).toBe('WEBHOOK_NOT_FOUND');
    }
    // Untouched.
    expect(
      bodyOf<Envelope>(await call(app, auth, 'GET', `/v1/webhooks/${mine.id}`)).data.name,
    ).toBeNull();
  });

  it.each([UUID, 'not-a-uuid'])(
    'answers 404 WEBHOOK_NOT_FOUND for the unknown id %s',
    async (id) => {
      const { app, auth } = await buildWebhookApp();
      const response = await call(app, auth, 'GET', `/v1/webhooks/${id}`);
      expect(response.statusCode).toBe(404);
      expect(bodyOf<Failure>(response).error.code).toBe('WEBHOOK_NOT_FOUND');
    },
  );
});

describe('PATCH /v1/webhooks/{id}', () => {
  it('changes url, events, name and active, and keeps what it was not given', async () => {
    const { app, auth, clock } = await buildWebhookApp();
    const created = await createWebhook(app, auth, {
      url: 'https://example.com/a',
      events: ['*'],
      name: 'First',
    });
    clock.advance(5000);
    const response = await call(app, auth, 'PATCH', `/v1/webhooks/${created.id}`, {
      url: 'https://example.com/b',
      events: ['message.inbound'],
      active: false,
    });
    expect(response.statusCode).toBe(200);
    expect(bodyOf<Envelope>(response).data).toMatchObject({
      url: 'https://example.com/b',
      events: ['message.inbound'],
      active: false,
      name: 'First',
      updatedAt: new Date(clock.now()).toISOString(),
    });
    expect(response.body).not.toContain('whsec_');
    const cleared = await call(app, auth, 'PATCH', `/v1/webhooks/${created.id}`, { name: null });
    expect(bodyOf<Envelope>(cleared).data.name).toBeNull();
    const resumed = await call(app, auth, 'PATCH', `/v1/webhooks/${created.id}`, { active: true });
    expect(bodyOf<Envelope>(resumed).data.active).toBe(true);
  });

  it('requires at least one field', async () => {
    const { app, auth } = await buildWebhookApp();
    const created = await createWebhook(app, auth, { url: 'https://example.com/a', events: ['*'] });
    const response = await call(app, auth, 'PATCH', `/v1/webhooks/${created.id}`, {});
    expect(response.statusCode).toBe(400);
    expect(bodyOf<Failure>(response).error.code).toBe('VALIDATION_ERROR');
  });

  it('answers 409 WEBHOOK_DUPLICATE when the change collides with another active webhook', async () => {
    const { app, auth } = await buildWebhookApp();
    await createWebhook(app, auth, { url: 'https://example.com/a', events: ['message.sent'] });
    const b = await createWebhook(app, auth, {
      url: 'https://example.com/b',
      events: ['message.sent'],
    });
    const byUrl = await call(app, auth, 'PATCH', `/v1/webhooks/${b.id}`, {
      url: 'https://example.com/a',
    });
    expect(byUrl.statusCode).toBe(409);
    expect(bodyOf<Failure>(byUrl).error.code).toBe('WEBHOOK_DUPLICATE');

    const c = await createWebhook(app, auth, {
      url: 'https://example.com/a',
      events: ['message.failed'],
    });
    const byEvents = await call(app, auth, 'PATCH', `/v1/webhooks/${c.id}`, {
      events: ['message.sent'],
    });
    expect(byEvents.statusCode).toBe(409);

    // A paused duplicate cannot be resumed while its twin is active.
    await call(app, auth, 'PATCH', `/v1/webhooks/${c.id}`, { active: false });
    await call(app, auth, 'PATCH', `/v1/webhooks/${c.id}`, { events: ['message.sent'] });
    const resume = await call(app, auth, 'PATCH', `/v1/webhooks/${c.id}`, { active: true });
    expect(resume.statusCode).toBe(409);
    expect(bodyOf<Failure>(resume).error.code).toBe('WEBHOOK_DUPLICATE');
    // Changing a webhook to its own values is not a collision.
    const same = await call(app, auth, 'PATCH', `/v1/webhooks/${b.id}`, {
      url: 'https://example.com/b',
    });
    expect(same.statusCode).toBe(200);
  });

  it('answers 404 WEBHOOK_NOT_FOUND for an unknown id', async () => {
    const { app, auth } = await buildWebhookApp();
    const response = await call(app, auth, 'PATCH', `/v1/webhooks/${UUID}`, { active: false });
    expect(response.statusCode).toBe(404);
    expect(bodyOf<Failure>(response).error.code).toBe('WEBHOOK_NOT_FOUND');
  });

  it('signs with a supplied new secret from the next delivery on, never echoing it', async () => {
    const { app, auth } = await buildWebhookApp();
    const hook = await receiver();
    const created = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    const secret = 'a-brand-new-secret-0123456789';
    const response = await call(app, auth, 'PATCH', `/v1/webhooks/${created.id}`, { secret });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(secret);
    await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`);
    const [delivery] = hook.requests;
    expect(delivery && signatureIsValid(secret, delivery.headers, delivery.body)).toBe(true);
    expect(
      delivery && signatureIsValid(created.secret ?? '', delivery.headers, delivery.body),
    ).toBe(false);
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('deletes the webhook: 404 afterwards', async () => {
    const { app, auth } = await buildWebhookApp();
    const created = await createWebhook(app, auth, { url: 'https://example.com/a', events: ['*'] });
    const response = await call(app, auth, 'DELETE', `/v1/webhooks/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(bodyOf<Envelope>(response).data).toEqual({ id: created.id, deleted: true });
    expect((await call(app, auth, 'GET', `/v1/webhooks/${created.id}`)).statusCode).toBe(404);
    const again = await call(app, auth, 'DELETE', `/v1/webhooks/${created.id}`);
    expect(again.statusCode).toBe(404);
    expect(bodyOf<Failure>(again).error.code).toBe('WEBHOOK_NOT_FOUND');
  });
});

describe('POST /v1/webhooks/{id}/test', () => {
  it('delivers a webhook.test event signed with the webhook secret, while the request waits', async () => {
    const { app, auth } = await buildWebhookApp();
    const hook = await receiver();
    const created = await createWebhook(app, auth, {
      url: `${hook.origin}/h`,
      events: ['message.sent'],
    });
    const response = await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`);
    expect(response.statusCode).toBe(200);
    const result = bodyOf<Envelope>(response).data;
    expect(result).toEqual({
      eventId: expect.stringMatching(/^evt_test_[0-9a-f-]{36}$/),
      delivered: true,
      statusCode: 200,
      durationMs: expect.any(Number),
      error: null,
    });
    expect(hook.requests).toHaveLength(1);
    const [delivery] = hook.requests;
    if (!delivery) throw new Error('no delivery');
    expect(signatureIsValid(created.secret ?? '', delivery.headers, delivery.body)).toBe(true);
    expect(JSON.parse(delivery.body.toString('utf8'))).toEqual({
      id: result.eventId,
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { message: expect.any(String), webhookId: created.id },
    });
    expect(delivery.headers['x-correlation-id']).toBe(response.headers['x-correlation-id']);
    expect(delivery.headers['x-event-id']).toBe(result.eventId);
  });

  it('reports a failure without retrying it, and reaches inactive webhooks too', async () => {
    const { app, auth, clock } = await buildWebhookApp();
    // The receiver explains itself at length: the log keeps the start of what it said.
    const explanation = `{"error":"maintenance","detail":"${'x'.repeat(2000)}"}`;
    const hook = await receiver((_request, response) => response.writeHead(503).end(explanation));
    const created = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    await call(app, auth, 'PATCH', `/v1/webhooks/${created.id}`, { active: false });
    const response = await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`);
    expect(bodyOf<Envelope>(response).data).toMatchObject({
      delivered: false,
      statusCode: 503,
      error: 'receiver answered HTTP 503',
    });
    clock.advance(24 * 60 * 60 * 1000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hook.requests).toHaveLength(1);
    const log = bodyOf<Envelope<{ deliveries: Array<Record<string, unknown>> }>>(
      await call(app, auth, 'GET', `/v1/webhooks/${created.id}/deliveries`),
    ).data.deliveries;
    expect(log).toEqual([
      expect.objectContaining({
        trigger: 'test',
        status: 'failed',
        statusCode: 503,
        attempt: 1,
        nextAttemptAt: null,
        responseBody: explanation.slice(0, 1024),
      }),
    ]);
  });

  it('reports a receiver that cannot be reached', async () => {
    const { app, auth } = await buildWebhookApp();
    const hook = await receiver();
    await hook.close();
    const created = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    const result = bodyOf<Envelope>(
      await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`),
    ).data;
    expect(result).toMatchObject({
      delivered: false,
      statusCode: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});

describe('POST /v1/webhooks/{id}/rotate-secret', () => {
  it('returns a new secret once; the old one stops signing at once', async () => {
    const { app, auth } = await buildWebhookApp();
    const hook = await receiver();
    const created = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    const response = await call(app, auth, 'POST', `/v1/webhooks/${created.id}/rotate-secret`);
    expect(response.statusCode).toBe(200);
    const rotated = bodyOf<Envelope<{ secret: string; id: string }>>(response).data;
    expect(rotated.id).toBe(created.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`);
    const [delivery] = hook.requests;
    if (!delivery) throw new Error('no delivery');
    expect(signatureIsValid(rotated.secret, delivery.headers, delivery.body)).toBe(true);
    expect(signatureIsValid(created.secret ?? '', delivery.headers, delivery.body)).toBe(false);
    // Never shown again.
    expect((await call(app, auth, 'GET', `/v1/webhooks/${created.id}`)).body).not.toContain(
      rotated.secret,
    );
  });
});

describe('the delivery log', () => {
  it('pages attempts newest first and filters by status and event', async () => {
    const { app, auth } = await buildWebhookApp();
    let answer = 200;
    const hook = await receiver((_request, response) => response.writeHead(answer).end());
    const created = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    const ids: string[] = [];
    for (const status of [200, 500, 200]) {
      answer = status;
      const test = await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`);
      ids.push(bodyOf<Envelope<{ eventId: string }>>(test).data.eventId);
    }
    const url = `/v1/webhooks/${created.id}/deliveries`;
    const first = bodyOf<
      Envelope<{
        deliveries: Array<{ eventId: string }>;
        pagination: { hasMore: boolean; nextCursor: string | null };
      }>
    >(await call(app, auth, 'GET', `${url}?limit=2`)).data;
    expect(first.deliveries.map((d) => d.eventId)).toEqual([ids[2], ids[1]]);
    expect(first.pagination.hasMore).toBe(true);
    const second = bodyOf<
      Envelope<{
        deliveries: Array<{ eventId: string }>;
        pagination: { hasMore: boolean; nextCursor: string | null };
      }>
    >(await call(app, auth, 'GET', `${url}?limit=2&cursor=${first.pagination.nextCursor}`)).data;
    expect(second.deliveries.map((d) => d.eventId)).toEqual([ids[0]]);
    expect(second.pagination).toEqual({ hasMore: false, nextCursor: null });

    const failed = bodyOf<Envelope<{ deliveries: Array<{ eventId: string }> }>>(
      await call(app, auth, 'GET', `${url}?status=failed`),
    ).data.deliveries;
    expect(failed.map((d) => d.eventId)).toEqual([ids[1]]);
    const one = bodyOf<Envelope<{ deliveries: Array<{ eventId: string }> }>>(
      await call(app, auth, 'GET', `${url}?eventId=${ids[0]}`),
    ).data.deliveries;
    expect(one.map((d) => d.eventId)).toEqual([ids[0]]);
  });

  it('answers 400 VALIDATION_ERROR for a bad cursor, limit or status', async () => {
    const { app, auth } = await buildWebhookApp();
    const created = await createWebhook(app, auth, { url: 'https://example.com', events: ['*'] });
    for (const query of ['cursor=nonsense', 'limit=0', 'limit=101', 'status=lost']) {
      const response = await call(
        app,
        auth,
        'GET',
        `/v1/webhooks/${created.id}/deliveries?${query}`,
      );
      expect(response.statusCode, query).toBe(400);
      expect(bodyOf<Failure>(response).error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', () => {
  it('queues one more attempt of the same event, signed afresh', async () => {
    const { app, auth } = await buildWebhookApp();
    const hook = await receiver();
    const created = await createWebhook(app, auth, { url: `${hook.origin}/h`, events: ['*'] });
    await call(app, auth, 'POST', `/v1/webhooks/${created.id}/test`);
    const [logged] = bodyOf<Envelope<{ deliveries: Array<{ id: string; eventId: string }> }>>(
      await call(app, auth, 'GET', `/v1/webhooks/${created.id}/deliveries`),
    ).data.deliveries;
    if (!logged) throw new Error('no delivery logged');
    const response = await call(
      app,
      auth,
      'POST',
      `/v1/webhooks/${created.id}/deliveries/${logged.id}/redeliver`,
    );
    expect(response.statusCode).toBe(202);
    expect(bodyOf<Envelope>(response).data).toMatchObject({
      webhookId: created.id,
      eventId: logged.eventId,
      trigger: 'redelivery',
      attempt: 1,
      status: 'pending',
    });
    await waitFor(() => hook.requests.length === 2, 5000, 'the redelivery');
    const [first, second] = hook.requests;
    expect(second?.body.equals(first?.body ?? Buffer.alloc(0))).toBe(true);
    expect(second && signatureIsValid(created.secret ?? '', second.headers, second.body)).toBe(
      true,
    );
    const redelivery = await waitFor(async () => {
      const log = bodyOf<Envelope<{ deliveries: Array<{ trigger: string; status: string }> }>>(
        await call(app, auth, 'GET', `/v1/webhooks/${created.id}/deliveries?status=delivered`),
      ).data.deliveries;
      return log.find((entry) => entry.trigger === 'redelivery');
    });
    expect(redelivery.status).toBe('delivered');
  });

  it('answers NOT_FOUND for an unknown attempt and WEBHOOK_NOT_FOUND for an unknown webhook', async () => {
    const { app, auth } = await buildWebhookApp();
    const hook = await receiver();
    const a = await createWebhook(app, auth, { url: `${hook.origin}/a`, events: ['*'] });
    const b = await createWebhook(app, auth, { url: `${hook.origin}/b`, events: ['*'] });
    await call(app, auth, 'POST', `/v1/webhooks/${a.id}/test`);
    const [ofA] = bodyOf<Envelope<{ deliveries: Array<{ id: string }> }>>(
      await call(app, auth, 'GET', `/v1/webhooks/${a.id}/deliveries`),
    ).data.deliveries;
    for (const url of [
      `/v1/webhooks/${a.id}/deliveries/${UUID}/redeliver`,
      `/v1/webhooks/${b.id}/deliveries/${ofA?.id}/redeliver`,
    ]) {
      const response = await call(app, auth, 'POST', url);
      expect(response.statusCode, url).toBe(404);
      expect(bodyOf<Failure>(response).error.code).toBe('NOT_FOUND');
    }
    const unknown = await call(
      app,
      auth,
      'POST',
      `/v1/webhooks/${UUID}/deliveries/${ofA?.id}/redeliver`,
    );
    expect(bodyOf<Failure>(unknown).error.code).toBe('WEBHOOK_NOT_FOUND');
  });
});

describe('legacy single-webhook endpoints', () => {
  it('answer WEBHOOK_NOT_CONFIGURED (GET: null) when no webhook is active', async () => {
    const { app, auth } = await buildWebhookApp();
    const get = await call(app, auth, 'GET', '/v1/webhooks');
    expect(get.statusCode).toBe(200);
    expect(bodyOf<Envelope<null>>(get).data).toBeNull();
    for (const [method, url] of [
      ['DELETE', '/v1/webhooks'],
      ['POST', '/v1/webhooks/test'],
      ['POST', '/v1/webhooks/rotate-secret'],
    ] as const) {
      const response = await call(app, auth, method, url);
      expect(response.statusCode, url).toBe(404);
      expect(bodyOf<Failure>(response).error.code).toBe('WEBHOOK_NOT_CONFIGURED');
    }
  });

  it('act on the oldest active webhook', async () => {
    const { app, auth, clock } = await buildWebhookApp();
    const hook = await receiver();
    const oldest = await createWebhook(app, auth, { url: `${hook.origin}/old`, events: ['*'] });
    clock.advance(1000);
    await createWebhook(app, auth, { url: `${hook.origin}/new`, events: ['*'] });
    const get = bodyOf<Envelope<{ id: string }>>(await call(app, auth, 'GET', '/v1/webhooks')).data;
    expect(get.id).toBe(oldest.id);
    expect(JSON.stringify(get)).not.toContain('whsec_');

    const test = await call(app, auth, 'POST', '/v1/webhooks/test');
    expect(test.statusCode).toBe(200);
    expect(bodyOf<Envelope>(test).data).toMatchObject({ delivered: true, statusCode: 200 });
    expect(hook.requests.map((request) => request.path)).toEqual(['/old']);

    const rotate = await call(app, auth, 'POST', '/v1/webhooks/rotate-secret');
    expect(rotate.statusCode).toBe(200);
    const rotated = bodyOf<Envelope<{ id: string; secret: string }>>(rotate).data;
    expect(rotated.id).toBe(oldest.id);
    await call(app, auth, 'POST', '/v1/webhooks/test');
    const last = hook.requests.at(-1);
    expect(last && signatureIsValid(rotated.secret, last.headers, last.body)).toBe(true);
  });

  it('PUT deactivates every active webhook and registers one, even for the same url', async () => {
    const { app, auth } = await buildWebhookApp();
    const a = await createWebhook(app, auth, { url: 'https://example.com/a', events: ['*'] });
    const b = await createWebhook(app, auth, { url: 'https://example.com/b', events: ['*'] });
    const put = await call(app, auth, 'PUT', '/v1/webhooks', {
      url: 'https://example.com/a',
      events: ['*'],
    });
    expect(put.statusCode).toBe(200);
    const created = bodyOf<Envelope<{ id: string; secret: string; active: boolean }>>(put).data;
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.active).toBe(true);
    const list = bodyOf<Envelope<Array<{ id: string; active: boolean }>>>(
      await call(app, auth, 'GET', '/v1/webhooks/list'),
    ).data;
    expect(list.map((webhook) => [webhook.id, webhook.active])).toEqual([
      [a.id, false],
      [b.id, false],
      [created.id, true],
    ]);
    const supplied = await call(app, auth, 'PUT', '/v1/webhooks', {
      url: 'https://example.com/c',
      events: ['message.sent'],
      secret: 'legacy-supplied-secret-123456',
    });
    expect(supplied.statusCode).toBe(200);
    expect(bodyOf<Envelope>(supplied).data).not.toHaveProperty('secret');
    const invalid = await call(app, auth, 'PUT', '/v1/webhooks', { url: 'https://example.com/c' });
    expect(invalid.statusCode).toBe(400);
  });

  it('DELETE deactivates every active webhook and keeps the registrations', async () => {
    const { app, auth } = await buildWebhookApp();
    await createWebhook(app, auth, { url: 'https://example.com/a', events: ['*'] });
    await createWebhook(app, auth, { url: 'https://example.com/b', events: ['*'] });
    const response = await call(app, auth, 'DELETE', '/v1/webhooks');
    expect(response.statusCode).toBe(200);
    expect(bodyOf<Envelope>(response).data).toEqual({ deactivated: 2 });
    const list = bodyOf<Envelope<Array<{ active: boolean }>>>(
      await call(app, auth, 'GET', '/v1/webhooks/list'),
    ).data;
    expect(list.map((webhook) => webhook.active)).toEqual([false, false]);
    const again = await call(app, auth, 'DELETE', '/v1/webhooks');
    expect(bodyOf<Failure>(again).error.code).toBe('WEBHOOK_NOT_CONFIGURED');
  });
});
