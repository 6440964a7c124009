import type { CallbackDeliveryList, CallbackSecret } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { assignNumber, createCustomerWithKey, createInstance } from '../support/admin-helpers';
import { SIMULATOR_TEST_ENV } from '../support/simulator-app';
import { bearer, bodyOf, buildTestApp } from '../support/test-app';
import {
  call,
  createWebhook,
  FAST_DELIVERY_ENV,
  receiver,
  settle,
  signatureIsValid,
  waitFor,
} from './webhook-test-support';

const TO = '+14155550123';

/** An app on the simulator with two customers, each with a number and a key, and no webhook. */
async function callbackApp(env: Record<string, string> = {}) {
  const testApp = await buildTestApp({
    env: { ...SIMULATOR_TEST_ENV, ...FAST_DELIVERY_ENV, ...env },
  });
  const { app } = testApp;
  const instance = await createInstance(app);
  const customer = async (name: string, number: string) => {
    const { customer: created, key } = await createCustomerWithKey(app, name);
    await assignNumber(app, created.id, {
      phoneNumber: number,
      instanceId: instance.id,
      isDefault: true,
    });
    return { id: created.id, auth: bearer(key) };
  };
  return {
    ...testApp,
    acme: await customer('Acme', '+14155550100'),
    globex: await customer('Globex', '+14155550101'),
  };
}

const secretOf = async (app: Awaited<ReturnType<typeof callbackApp>>['app'], auth: object) =>
  bodyOf<{ data: CallbackSecret }>(
    await call(app, auth as { authorization: string }, 'GET', '/v1/callbacks/secret'),
  ).data;

describe("a message's callbackUrl", () => {
  it('is delivered, signed with the callback secret, and logged, for a customer with no webhook', async () => {
    const { app, acme, globex } = await callbackApp();
    const hook = await receiver();
    const sent = await call(app, acme.auth, 'POST', '/v1/messages', {
      to: TO,
      content: { text: 'hi' },
      callbackUrl: `${hook.origin}/status`,
    });
    expect(sent.statusCode).toBe(202);
    const messageId = bodyOf<{ data: { id: string } }>(sent).data.id;
    // queued, sent, delivered, read: every attempt settled.
    const settledLog = async () => {
      let log: CallbackDeliveryList = {
        deliveries: [],
        pagination: { hasMore: false, nextCursor: null },
      };
      await waitFor(async () => {
        log = bodyOf<{ data: CallbackDeliveryList }>(
          await call(app, acme.auth, 'GET', '/v1/callbacks/deliveries'),
        ).data;
        return (
          log.deliveries.length >= 3 &&
          log.deliveries.length === hook.requests.length &&
          log.deliveries.every((delivery) => delivery.status === 'delivered')
        );
      });
      return log;
    };
    const log = await settledLog();

    const { secret } = await secretOf(app, acme.auth);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    for (const request of hook.requests) {
      expect(signatureIsValid(secret, request.headers, request.body)).toBe(true);
      const event = JSON.parse(request.body.toString('utf8')) as { data: { messageId: string } };
      expect(event.data.messageId).toBe(messageId);
    }
    // Reading the secret again gives the same one; another customer's is its own.
    expect((await secretOf(app, acme.auth)).secret).toBe(secret);
    expect((await secretOf(app, globex.auth)).secret).not.toBe(secret);

    expect(log.deliveries[0]).toMatchObject({
      url: `${hook.origin}/status`,
      status: 'delivered',
      statusCode: 200,
      trigger: 'event',
      attempt: 1,
    });
    // Nothing of Acme's shows in Globex's log.
    const other = bodyOf<{ data: CallbackDeliveryList }>(
      await call(app, globex.auth, 'GET', '/v1/callbacks/deliveries'),
    ).data;
    expect(other.deliveries).toEqual([]);
  });

  it('pages the log with a cursor, filters it, and refuses a cursor it did not give', async () => {
    const { app, acme } = await callbackApp();
    const hook = await receiver();
    for (const text of ['one', 'two']) {
      await call(app, acme.auth, 'POST', '/v1/messages', {
        to: TO,
        content: { text },
        callbackUrl: `${hook.origin}/status`,
      });
    }
    await waitFor(() => hook.requests.length >= 6);
    const first = bodyOf<{ data: CallbackDeliveryList }>(
      await call(app, acme.auth, 'GET', '/v1/callbacks/deliveries?limit=4'),
    ).data;
    expect(first.deliveries).toHaveLength(4);
    expect(first.pagination.hasMore).toBe(true);
    const rest = bodyOf<{ data: CallbackDeliveryList }>(
      await call(
        app,
        acme.auth,
        'GET',
        `/v1/callbacks/deliveries?limit=4&cursor=${first.pagination.nextCursor}`,
      ),
    ).data;
    expect(rest.deliveries.length).toBeGreaterThanOrEqual(2);
    const ids = [...first.deliveries, ...rest.deliveries].map((delivery) => delivery.id);
    expect(new Set(ids).size).toBe(ids.length);
    const failed = bodyOf<{ data: CallbackDeliveryList }>(
      await call(app, acme.auth, 'GET', '/v1/callbacks/deliveries?status=failed'),
    ).data;
    expect(failed.deliveries).toEqual([]);
    const bad = await call(app, acme.auth, 'GET', '/v1/callbacks/deliveries?cursor=nope');
    expect(bad.statusCode).toBe(400);
    expect(bodyOf<{ error: { code: string; message: string } }>(bad).error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'cursor: not a cursor returned by this list',
    });
  });

  it('rotates: the new secret signs at once, retries already scheduled included', async () => {
    const { app, acme, clock } = await callbackApp({ WEBHOOK_RETRY_SCHEDULE: '1s,2s' });
    let failing = true;
    const hook = await receiver((_request, response) => {
      response.writeHead(failing ? 500 : 200).end();
    });
    const before = await secretOf(app, acme.auth);
    await call(app, acme.auth, 'POST', '/v1/messages', {
      to: TO,
      content: { text: 'hi' },
      callbackUrl: `${hook.origin}/status`,
    });
    await waitFor(() => hook.requests.length >= 3);
    await settle(300);
    const rotated = await call(app, acme.auth, 'POST', '/v1/callbacks/secret/rotate');
    expect(rotated.statusCode).toBe(200);
    const after = bodyOf<{ data: CallbackSecret }>(rotated).data;
    expect(after.secret).not.toBe(before.secret);
    expect((await secretOf(app, acme.auth)).secret).toBe(after.secret);

    failing = false;
    const seen = hook.requests.length;
    clock.advance(1_000);
    await waitFor(() => hook.requests.length >= seen + 3);
    for (const retry of hook.requests.slice(seen)) {
      expect(signatureIsValid(after.secret, retry.headers, retry.body)).toBe(true);
      expect(signatureIsValid(before.secret, retry.headers, retry.body)).toBe(false);
    }
    const readLog = async () =>
      bodyOf<{ data: CallbackDeliveryList }>(
        await call(app, acme.auth, 'GET', '/v1/callbacks/deliveries'),
      ).data;
    // The receiver sees a request before the server has recorded its answer.
    await waitFor(async () =>
      (await readLog()).deliveries.every((d) => d.trigger !== 'retry' || d.status !== 'pending'),
    );
    const log = await readLog();
    const firsts = log.deliveries.filter((d) => d.trigger === 'event');
    expect(firsts.map((d) => [d.status, d.statusCode])).toEqual(
      firsts.map(() => ['retrying', 500]),
    );
    const retries = log.deliveries.filter((d) => d.trigger === 'retry');
    expect(retries.map((d) => d.status)).toEqual(firsts.map(() => 'delivered'));
  });

  it('starts as the oldest active webhook secret, so receivers that verified callbacks with it keep working', async () => {
    const { app, acme } = await callbackApp();
    const hook = await receiver();
    const webhook = await createWebhook(app, acme.auth, {
      url: `${hook.origin}/all`,
      events: ['*'],
    });
    expect((await secretOf(app, acme.auth)).secret).toBe(webhook.secret);
    // Rotating the webhook afterwards does not change the callback secret.
    await call(app, acme.auth, 'POST', `/v1/webhooks/${webhook.id}/rotate-secret`);
    expect((await secretOf(app, acme.auth)).secret).toBe(webhook.secret);
  });
});
