import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Switchboard } from '../../src/index';
import {
  signWebhookPayload,
  verifyWebhook,
  WebhookMalformedSignatureError,
  WebhookMissingHeaderError,
  WebhookRawBodyRequiredError,
  WebhookSignatureMismatchError,
  WebhookTimestampInFutureError,
  WebhookTimestampTooOldError,
} from '../../src/webhooks/index';
import { createCustomer } from '../support/customers';
import {
  type LoopbackServer,
  type RecordedRequest,
  startLoopbackServer,
} from '../support/loopback-server';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

let server: SwitchboardServer;
let receiver: LoopbackServer;

beforeAll(async () => {
  server = await startServer();
  receiver = await startLoopbackServer((_request, response) => {
    response.writeHead(200).end();
  });
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The deliveries the receiver got at `path`. */
function deliveriesAt(path: string): RecordedRequest[] {
  return receiver.requests.filter((request) => request.url === path);
}

/** Waits for a delivery at `path` whose body satisfies `match`, and returns it. */
async function deliveryAt(
  path: string,
  match: (body: { id: string; type: string; data: Record<string, unknown> }) => boolean,
): Promise<RecordedRequest> {
  // vi.waitFor rather than expect.poll: it also runs in beforeAll. The bound is generous: a
  // message's delivery and its webhooks took over 5 s on CI while other packages' tests ran.
  return vi.waitFor(
    () => {
      const found = deliveriesAt(path).find((request) => match(JSON.parse(request.body)));
      if (!found) throw new Error(`no matching delivery at ${path} yet`);
      return found;
    },
    { timeout: 15_000, interval: 20 },
  );
}

describe('callbacks against the real server', () => {
  it('verifies callbackUrl deliveries with the callback secret, lists them, and rotates the secret', async () => {
    const { client } = await createCustomer(server, 'Callbacks', ['+14155550131']);
    const { secret } = await client.callbacks.getSecret();
    const sent = await client.messages.send({
      to: '+12125550105',
      content: { text: 'Call me back' },
      callbackUrl: `${receiver.baseUrl}/callback`,
    });
    const delivery = await deliveryAt(
      '/callback',
      (body) => body.type === 'message.delivered' && body.data.messageId === sent.id,
    );
    await expect(
      verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret }),
    ).resolves.toMatchObject({ type: 'message.delivered' });

    await expect
      .poll(
        async () =>
          (
            await client.callbacks.listDeliveries({
              eventId: delivery.headers['x-event-id'] as string,
            })
          ).items,
      )
      .toEqual([
        expect.objectContaining({ url: `${receiver.baseUrl}/callback`, status: 'delivered' }),
      ]);

    const rotated = await client.callbacks.rotateSecret();
    expect(rotated.secret).not.toBe(secret);
    expect((await client.callbacks.getSecret()).secret).toBe(rotated.secret);
  });
});

describe('webhooks against the real server', () => {
  it('manages a webhook: create, list, get, update, test, deliveries, redeliver, rotate, delete', async () => {
    const { client } = await createCustomer(server, 'Webhook management');
    const url = `${receiver.baseUrl}/manage`;
    const hook = await client.webhooks.create({ url, events: ['*'], name: 'Receiver' });
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook).toMatchObject({ url, events: ['*'], name: 'Receiver', active: true });

    expect((await client.webhooks.list()).map((w) => w.id)).toEqual([hook.id]);
    const fetched = await client.webhooks.get(hook.id);
    expect(fetched).not.toHaveProperty('secret');

    const updated = await client.webhooks.update(hook.id, {
      events: ['message.delivered', 'webhook.test'],
      name: null,
    });
    expect(updated).toMatchObject({ events: ['message.delivered', 'webhook.test'], name: null });

    const tested = await client.webhooks.test(hook.id);
    expect(tested).toMatchObject({ delivered: true, statusCode: 200, error: null });
    expect(tested.eventId).toMatch(/^evt_test_/);
    const testDelivery = await deliveryAt('/manage', (body) => body.id === tested.eventId);
    await expect(
      verifyWebhook({
        payload: testDelivery.body,
        headers: testDelivery.headers,
        secret: hook.secret ?? '',
      }),
    ).resolves.toMatchObject({ id: tested.eventId, type: 'webhook.test' });

    // Two more attempts, so the log spans pages of one.
    await client.webhooks.test(hook.id);
    const [latest] = (await client.webhooks.listDeliveries(hook.id, { limit: 1 })).items;
    if (!latest) throw new Error('no delivery listed');
    const redelivered = await client.webhooks.redeliver(hook.id, latest.id);
    expect(redelivered).toMatchObject({ eventId: latest.eventId, trigger: 'redelivery' });
    await expect
      .poll(
        async () => (await client.webhooks.listDeliveries(hook.id, { status: 'pending' })).items,
      )
      .toEqual([]);

    const attempts = [];
    for await (const attempt of client.webhooks.listDeliveries(hook.id, { limit: 1 })) {
      attempts.push(attempt);
    }
    expect(attempts.map((a) => a.trigger).sort()).toEqual(['redelivery', 'test', 'test']);
    expect(attempts.every((a) => a.status === 'delivered' && a.statusCode === 200)).toBe(true);

    const rotated = await client.webhooks.rotateSecret(hook.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);
    const afterRotation = await client.webhooks.test(hook.id);
    const signedWithNew = await deliveryAt('/manage', (b) => b.id === afterRotation.eventId);
    const params = { payload: signedWithNew.body, headers: signedWithNew.headers };
    await expect(verifyWebhook({ ...params, secret: rotated.secret })).resolves.toBeDefined();
    await expect(verifyWebhook({ ...params, secret: hook.secret ?? '' })).rejects.toBeInstanceOf(
      WebhookSignatureMismatchError,
    );

    expect(await client.webhooks.delete(hook.id)).toMatchObject({ id: hook.id, deleted: true });
    expect(await client.webhooks.list()).toEqual([]);
  });

  it('drives the deprecated single-webhook endpoints', async () => {
    const { client } = await createCustomer(server, 'Legacy webhooks');
    expect(await client.webhooks.legacy.get()).toBeNull();

    const first = await client.webhooks.legacy.put({
      url: `${receiver.baseUrl}/legacy`,
      events: ['*'],
    });
    expect(first.secret).toMatch(/^whsec_/);
    expect((await client.webhooks.legacy.get())?.id).toBe(first.id);

    const tested = await client.webhooks.legacy.test();
    expect(tested.delivered).toBe(true);
    const rotated = await client.webhooks.legacy.rotateSecret();
    expect(rotated.id).toBe(first.id);
    expect(rotated.secret).not.toBe(first.secret);

    expect(await client.webhooks.legacy.delete()).toEqual({ deactivated: 1 });
    expect(await client.webhooks.legacy.get()).toBeNull();
  });
});

describe('verifyWebhook against deliveries signed by the real server', () => {
  let client: Switchboard;
  let secret: string;
  let delivery: RecordedRequest;

  beforeAll(async () => {
    const customer = await createCustomer(server, 'Verifier', ['+14155550130']);
    client = customer.client;
    const hook = await client.webhooks.create({
      url: `${receiver.baseUrl}/events`,
      events: ['message.delivered'],
    });
    secret = hook.secret ?? '';
    const sent = await client.messages.send({ to: '+12125550104', content: { text: 'Signed' } });
    delivery = await deliveryAt(
      '/events',
      (body) => body.type === 'message.delivered' && body.data.messageId === sent.id,
    );
  });

  it('accepts the raw body and headers of a real delivery and returns the typed event', async () => {
    const event = await verifyWebhook({
      payload: delivery.body,
      headers: delivery.headers,
      secret,
    });
    if (event.type !== 'message.delivered') throw new Error(`unexpected ${event.type}`);
    expect(event.data.status).toBe('delivered');
    expect(event.id).toBe(delivery.headers['x-event-id']);
    // Buffers and Headers objects work as well as strings and plain records.
    await expect(
      verifyWebhook({
        payload: Buffer.from(delivery.body),
        headers: new Headers(delivery.headers as Record<string, string>),
        secret,
      }),
    ).resolves.toEqual(event);
  });

  it('rejects a tampered body', async () => {
    const tampered = delivery.body.replace('"delivered"', '"read"');
    expect(tampered).not.toBe(delivery.body);
    await expect(
      verifyWebhook({ payload: tampered, headers: delivery.headers, secret }),
    ).rejects.toBeInstanceOf(WebhookSignatureMismatchError);
  });

  it('rejects a tampered timestamp', async () => {
    const timestamp = String(Number(delivery.headers['x-timestamp']) - 1);
    await expect(
      verifyWebhook({
        payload: delivery.body,
        headers: { ...delivery.headers, 'x-timestamp': timestamp },
        secret,
      }),
    ).rejects.toBeInstanceOf(WebhookSignatureMismatchError);
  });

  it('rejects a replay after the tolerance, and a clock far behind', async () => {
    const signedAt = Number(delivery.headers['x-timestamp']) * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(signedAt + 301_000);
    await expect(
      verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret }),
    ).rejects.toBeInstanceOf(WebhookTimestampTooOldError);
    vi.setSystemTime(signedAt - 301_000);
    await expect(
      verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret }),
    ).rejects.toBeInstanceOf(WebhookTimestampInFutureError);
  });

  it('rejects a wrong secret', async () => {
    await expect(
      verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret: `${secret}x` }),
    ).rejects.toBeInstanceOf(WebhookSignatureMismatchError);
  });

  it('rejects missing and malformed signature headers, and a parsed body', async () => {
    const { 'x-signature': _signature, ...unsigned } = delivery.headers;
    await expect(
      verifyWebhook({ payload: delivery.body, headers: unsigned, secret }),
    ).rejects.toBeInstanceOf(WebhookMissingHeaderError);
    await expect(
      verifyWebhook({
        payload: delivery.body,
        headers: { ...delivery.headers, 'x-signature': 'v1,abc' },
        secret,
      }),
    ).rejects.toBeInstanceOf(WebhookMalformedSignatureError);
    await expect(
      verifyWebhook({ payload: JSON.parse(delivery.body), headers: delivery.headers, secret }),
    ).rejects.toBeInstanceOf(WebhookRawBodyRequiredError);
  });

  it('signs like the server: signWebhookPayload reproduces the delivered signature', async () => {
    const timestamp = Number(delivery.headers['x-timestamp']);
    const signed = await signWebhookPayload({ payload: delivery.body, secret, timestamp });
    expect(signed['X-Signature']).toBe(delivery.headers['x-signature']);
    expect(signed['X-Timestamp']).toBe(delivery.headers['x-timestamp']);
  });
});
