import { describe, expect, it } from 'vitest';
import { assignNumber, createInstance } from '../support/admin-helpers';
import { bodyOf } from '../support/test-app';
import {
  buildWebhookApp,
  createWebhook,
  receiver,
  signatureIsValid,
  waitFor,
} from './webhook-test-support';

const CORRELATION_ID = 'cor_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

describe('events caused by the messaging API', () => {
  it('deliver a send’s lifecycle to the webhook and the callbackUrl, with the request’s correlation id', async () => {
    const testApp = await buildWebhookApp({ env: { SIMULATOR_STEP_MS: '0' } });
    const { app, auth, customerId } = testApp;
    const hook = await receiver();
    const webhook = await createWebhook(app, auth, {
      url: `${hook.origin}/webhook`,
      events: ['message.queued', 'message.sent', 'message.delivered'],
    });
    const instance = await createInstance(app);
    await assignNumber(app, customerId, {
      phoneNumber: '+14155550100',
      instanceId: instance.id,
      isDefault: true,
    });
    const sent = await app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { ...auth, 'x-correlation-id': CORRELATION_ID },
      payload: {
        to: '+14155550105',
        content: { text: 'Your order shipped' },
        callbackUrl: `${hook.origin}/callback`,
      },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const messageId = bodyOf<{ data: { id: string } }>(sent).data.id;

    const byPath = (path: string) => hook.requests.filter((request) => request.path === path);
    await waitFor(() => byPath('/webhook').length === 3, 5000, 'the webhook deliveries');
    // The callbackUrl gets every event of its message (read included), the webhook its types.
    await waitFor(() => byPath('/callback').length === 4, 5000, 'the callback deliveries');
    for (const request of hook.requests) {
      expect(request.headers['x-correlation-id']).toBe(CORRELATION_ID);
      expect(signatureIsValid(webhook.secret ?? '', request.headers, request.body)).toBe(true);
      const event = JSON.parse(request.body.toString('utf8')) as {
        type: string;
        data: { messageId: string };
      };
      expect(event.data.messageId).toBe(messageId);
      expect(request.headers['x-event-type']).toBe(event.type);
    }
    expect(
      byPath('/webhook')
        .map((request) => request.headers['x-event-type'])
        .sort(),
    ).toEqual(['message.delivered', 'message.queued', 'message.sent']);
  });
});
