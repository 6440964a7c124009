import type { Instance, Message } from '@switchboard/contract';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from '@switchboard/testing/bluebubbles';
import { FakeTwilio } from '@switchboard/testing/twilio';
import { describe, expect, it } from 'vitest';
import { customerHelpers, eventually, type TestCustomer } from '../chats/chat-test-app';
import { adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import { buildListeningApp } from '../support/listening-app';
import type { TestApp } from '../support/test-app';

const OWN = '+14155550100';
const CONTACT = '+14155550111';

/** Waits until message `id` is `status`, as the API answers it. */
function settled(customer: TestCustomer, id: string, status: Message['status']): Promise<Message> {
  return eventually(async () => {
    const message = await customer.ok<Message>('GET', `/v1/messages/${id}`);
    return message.status === status ? message : undefined;
  }, 8_000);
}

/** The customer's default number on `instance`. */
async function customerOn(t: TestApp, instance: Instance): Promise<TestCustomer> {
  const { customerId, key } = await createCustomerWithNumber(t.app, 'Acme', OWN, instance.id);
  return customerHelpers(t, customerId, key);
}

/** The lifecycle event types recorded for message `id`. */
function typesOf(customer: TestCustomer, id: string): string[] {
  return customer.events
    .filter((event) => 'data' in event && (event.data as { messageId?: string }).messageId === id)
    .map((event) => event.type);
}

describe('an SMS never reaches read, whatever the upstream reports (spec: message.read never on sms)', () => {
  it('Twilio: a signed `read` status callback (a Messaging Service delivering over RCS) leaves the message delivered', async () => {
    const fake = new FakeTwilio({ stepMs: 5 });
    await fake.start();
    const { t } = await buildListeningApp();
    try {
      const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
        name: 'twilio',
        provider: 'twilio',
        channels: ['sms'],
        config: {
          accountSid: fake.accountSid,
          authToken: fake.authToken,
          apiBaseUrl: fake.baseUrl,
          lookupBaseUrl: fake.baseUrl,
          pacing: { perSecond: 0, concurrency: 4 },
        },
      });
      fake.addNumber(OWN, instance.ingressUrl);
      const acme = await customerOn(t, instance);
      const accepted = await acme.ok<{ id: string }>(
        'POST',
        '/v1/messages',
        { to: CONTACT, content: { text: 'Your table is ready' }, routing: { preference: ['sms'] } },
        202,
      );
      await settled(acme, accepted.id, 'delivered');
      await fake.settled();
      const sid = fake.sent()[0]?.sid ?? '';
      // Twilio's MessageStatus `read`, as it reports it for RCS (and WhatsApp) messages.
      const response = await fake.statusCallback(sid, 'read');
      expect(response.status).toBeLessThan(300);
      // The callback has been handled once the ingress answered; a recorded `read` would show.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await acme.ok<Message>('GET', `/v1/messages/${accepted.id}`);
      expect(after.status).toBe('delivered');
      expect(after.timeline.map((entry) => entry.status)).not.toContain('read');
      expect(typesOf(acme, accepted.id)).toEqual([
        'message.queued',
        'message.sent',
        'message.delivered',
      ]);
    } finally {
      await t.close();
      await fake.stop();
    }
  });

  it('BlueBubbles: an SMS chat’s read receipt leaves the message delivered', async () => {
    const fake = new FakeBlueBubbles({ stepMs: 5, switches: PRIVATE_API_ENABLED });
    await fake.start();
    const { t } = await buildListeningApp();
    try {
      const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
        name: 'mac',
        provider: 'bluebubbles',
        channels: ['imessage', 'sms'],
        config: {
          serverUrl: fake.baseUrl,
          password: fake.password,
          address: OWN,
          pacing: { perSecond: 0, concurrency: 4 },
        },
      });
      const acme = await customerOn(t, instance);
      const accepted = await acme.ok<{ id: string }>(
        'POST',
        '/v1/messages',
        { to: CONTACT, content: { text: 'Running late' }, routing: { preference: ['sms'] } },
        202,
      );
      await settled(acme, accepted.id, 'delivered');
      const externalId = (await acme.ok<Message>('GET', `/v1/messages/${accepted.id}`)).externalId;
      // The Mac reports the SMS read (its fake marks every direct chat's messages read).
      await eventually(() => (fake.messages.get(externalId ?? '')?.dateRead ? true : undefined));
      await fake.settled();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await acme.ok<Message>('GET', `/v1/messages/${accepted.id}`);
      expect(after).toMatchObject({ status: 'delivered', channel: 'sms' });
      expect(typesOf(acme, accepted.id)).not.toContain('message.read');
    } finally {
      await t.close();
      await fake.stop();
    }
  });
});
