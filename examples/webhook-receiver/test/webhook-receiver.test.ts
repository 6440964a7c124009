import {
  type ExampleServer,
  runExample,
  startExampleServer,
} from '@switchboard/examples-test-server';
import { Switchboard, type WebhookEvent } from '@switchboard/sdk';
import { signWebhookPayload } from '@switchboard/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../src/webhook-receiver';

let server: ExampleServer;
let client: Switchboard;
let receiver: WebhookReceiver;
const events: WebhookEvent[] = [];
const rejected: string[] = [];

beforeAll(async () => {
  server = await startExampleServer();
  client = new Switchboard({ apiKey: server.apiKey, baseUrl: server.baseUrl });
  receiver = await startWebhookReceiver(client, {
    port: 0,
    onEvent: (event) => {
      events.push(event);
    },
    onRejected: (reason) => {
      rejected.push(reason);
    },
  });
});
afterAll(() => server.close());

/** The envelope events received so far (FaceTime's flat events left out). */
function received(): Extract<WebhookEvent, { id: string }>[] {
  return events.filter((event): event is Extract<WebhookEvent, { id: string }> => 'id' in event);
}

describe('webhook-receiver against a real server on the simulator', () => {
  it('registers itself as a webhook for every event type', async () => {
    const webhook = await client.webhooks.get(receiver.webhookId);
    expect(webhook).toMatchObject({ url: receiver.url, events: ['*'], active: true });
  });

  it('verifies and prints a test delivery', async () => {
    const test = await client.webhooks.test(receiver.webhookId);
    expect(test).toMatchObject({ delivered: true, statusCode: 200 });
    expect(received().find((event) => event.id === test.eventId)?.type).toBe('webhook.test');
  });

  it('receives the events of a sent message, signed by the server', async () => {
    const sent = await client.messages.send({ to: '+12125550104', content: { text: 'Hi' } });
    await expect
      .poll(() =>
        received()
          .filter((event) => 'messageId' in event.data && event.data.messageId === sent.id)
          .map((event) => event.type),
      )
      .toEqual(expect.arrayContaining(['message.queued', 'message.sent', 'message.delivered']));
  });

  it('hands a redelivered event over once', async () => {
    const test = await client.webhooks.test(receiver.webhookId);
    const [attempt] = (
      await client.webhooks.listDeliveries(receiver.webhookId, { eventId: test.eventId })
    ).items;
    if (!attempt) throw new Error('the test delivery is not in the log');
    await client.webhooks.redeliver(receiver.webhookId, attempt.id);
    await expect
      .poll(async () => {
        const log = await client.webhooks.listDeliveries(receiver.webhookId, {
          eventId: test.eventId,
        });
        return log.items.map((item) => `${item.trigger}:${item.status}`).sort();
      })
      .toEqual(['redelivery:delivered', 'test:delivered']);
    expect(received().filter((event) => event.id === test.eventId)).toHaveLength(1);
  });

  it('refuses a request signed with another secret', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged',
      type: 'webhook.test',
      timestamp: new Date().toISOString(),
      data: { message: 'forged', webhookId: receiver.webhookId },
    });
    const headers = await signWebhookPayload({ payload, secret: 'whsec_not_the_secret' });
    const response = await fetch(receiver.url, {
      method: 'POST',
      body: payload,
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(rejected).toHaveLength(1);
    expect(received().some((event) => event.id === 'evt_forged')).toBe(false);
  });

  it('removes its webhook and stops listening when closed', async () => {
    await receiver.close();
    expect(await client.webhooks.list()).toEqual([]);
    await expect(fetch(receiver.url, { method: 'POST' })).rejects.toThrow();
  });
});

describe('pnpm start', () => {
  it('finds a server on another port from HOST and PORT, and listens on RECEIVER_PORT', async () => {
    const run = await runExample(
      new URL('..', import.meta.url),
      [],
      {
        SWITCHBOARD_API_KEY: server.apiKey,
        HOST: '0.0.0.0',
        PORT: new URL(server.baseUrl).port,
        RECEIVER_PORT: '0',
      },
      /Test delivery: /,
    );
    expect(run.output).toMatch(/Receiving on http:\/\/127\.0\.0\.1:\d+\/webhooks/);
    expect(run.output).toContain('Test delivery: delivered');
  });
});
