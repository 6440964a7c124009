import type { Instance, Message } from '@switchboard/contract';
import { freeLoopbackPort } from '@switchboard/testing';
import { FakeBlueBubbles } from '@switchboard/testing/bluebubbles';
import { FakeTwilio } from '@switchboard/testing/twilio';
import { describe, expect, it } from 'vitest';
import { customerHelpers, eventually, type TestCustomer } from '../chats/chat-test-app';
import { adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import {
  fakeWhatsApp,
  fakeWhatsAppGateway,
  pairByQr,
  whatsAppPath,
} from '../support/fake-whatsapp-gateway';
import { buildListeningApp } from '../support/listening-app';
import type { TestApp } from '../support/test-app';

const OWN = '+14155550100';
/** A contact the Mac has no chat with (it has never been seen). */
const STRANGER = '+14155550177';

/** Waits until message `id` reaches one of `statuses`, as the API answers it. */
function settled(customer: TestCustomer, id: string, statuses: Message['status'][]) {
  return eventually(async () => {
    const message = await customer.ok<Message>('GET', `/v1/messages/${id}`);
    return statuses.includes(message.status) ? message : undefined;
  }, 8_000);
}

/** The customer's default number on `instance`. */
async function customerOn(t: TestApp, instance: Instance): Promise<TestCustomer> {
  const { customerId, key } = await createCustomerWithNumber(t.app, 'Acme', OWN, instance.id);
  return customerHelpers(t, customerId, key);
}

describe('an unknown reachability answer tries the channel, and its outcome decides (spec: fall back when a channel fails)', () => {
  it('BlueBubbles without the Private API (AppleScript sends): iMessage to an unseen contact is attempted and delivered', async () => {
    const fake = new FakeBlueBubbles({ stepMs: 5, switches: { privateApi: false } });
    await fake.start();
    const { t } = await buildListeningApp();
    try {
      const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
        name: 'mac',
        provider: 'bluebubbles',
        channels: ['imessage'],
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
        { to: STRANGER, content: { text: 'Your order shipped' } },
        202,
      );
      const done = await settled(acme, accepted.id, ['delivered', 'read', 'failed']);
      expect(done).toMatchObject({ status: 'delivered', channel: 'imessage', errorCode: null });
      expect(fake.sent().map((message) => message.text)).toEqual(['Your order shipped']);
      expect(acme.eventsOf('message.fallback')).toEqual([]);
    } finally {
      await t.close();
      await fake.stop();
    }
  });

  it('Twilio with a Lookup that fails: the SMS is attempted and sent', async () => {
    const fake = new FakeTwilio({ stepMs: 5 });
    await fake.start();
    const { t } = await buildListeningApp({
      PROVIDER_RETRY_BASE_MS: '50',
      PROVIDER_HTTP_TIMEOUT_MS: '300',
    });
    try {
      // Nothing listens on this loopback port: every Lookup fails to connect.
      const deadLookup = `http://127.0.0.1:${await freeLoopbackPort()}`;
      const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
        name: 'twilio',
        provider: 'twilio',
        channels: ['sms'],
        config: {
          accountSid: fake.accountSid,
          authToken: fake.authToken,
          apiBaseUrl: fake.baseUrl,
          lookupBaseUrl: deadLookup,
          lookup: true,
          pacing: { perSecond: 0, concurrency: 4 },
        },
      });
      fake.addNumber(OWN, instance.ingressUrl);
      const acme = await customerOn(t, instance);
      const accepted = await acme.ok<{ id: string }>(
        'POST',
        '/v1/messages',
        { to: STRANGER, content: { text: 'Your code is ready' }, routing: { preference: ['sms'] } },
        202,
      );
      const done = await settled(acme, accepted.id, ['delivered', 'failed']);
      expect(done).toMatchObject({ status: 'delivered', channel: 'sms', errorCode: null });
      expect(fake.sent().map((message) => message.to)).toEqual([STRANGER]);
    } finally {
      await t.close();
      await fake.stop();
    }
  });

  it('WhatsApp with its session down: the attempt is made and fails with the session’s reason, not NO_CHANNEL_AVAILABLE', async () => {
    const network = fakeWhatsApp([
      { phoneNumber: OWN, lid: '90000000000100@lid' },
      { phoneNumber: STRANGER, lid: '90000000000177@lid' },
    ]);
    const t = await fakeWhatsAppGateway(network);
    try {
      const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
        name: 'whatsapp',
        provider: 'baileys',
        channels: ['whatsapp'],
        config: { pacing: { perSecond: 0, concurrency: 4 } },
      });
      const acme = await customerOn(t, instance);
      await pairByQr(acme, network, OWN);
      await acme.ok('POST', `${whatsAppPath(OWN)}/disconnect`);

      const accepted = await acme.ok<{ id: string }>(
        'POST',
        '/v1/messages',
        { to: STRANGER, content: { text: 'Hello' }, routing: { preference: ['whatsapp'] } },
        202,
      );
      const done = await settled(acme, accepted.id, ['sent', 'delivered', 'read', 'failed']);
      expect(done).toMatchObject({ status: 'failed', channel: 'whatsapp' });
      expect(done.errorCode).not.toBe('NO_CHANNEL_AVAILABLE');
      expect(done.errorMessage).toMatch(/session of \+14155550100 is disconnected/);
    } finally {
      await t.close();
    }
  });
});
