import type { Instance, SwitchboardEvent } from '@switchboard/contract';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from '@switchboard/testing/bluebubbles';
import { FakeTwilio } from '@switchboard/testing/twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { customerHelpers } from '../chats/chat-test-app';
import { adminHeaders, adminPost, assignNumber } from '../support/admin-helpers';
import { fakeWhatsApp, fakeWhatsAppGateway, pairByQr } from '../support/fake-whatsapp-gateway';
import { buildListeningApp } from '../support/listening-app';
import { recordedEvents } from '../support/simulator-app';
import { type TestApp, tempDir } from '../support/test-app';
import { instanceWarnings, listUnrouted, metricValue, noneKept } from '../support/unrouted-inbound';
import { waitFor } from '../support/wait-for';

const CONTACT = '+14155550111';
const FRIEND = '+14155550133';

type Inbound = Extract<SwitchboardEvent, { type: 'message.inbound' }>;

/** The `message.inbound` events among `events`, as [text, to]. */
function inboundTexts(events: readonly SwitchboardEvent[]): [string, string][] {
  return events
    .filter((event): event is Inbound => event.type === 'message.inbound')
    .map((event) => [event.data.text, event.data.to]);
}

/** Waits until `count` inbound messages were recorded. */
function inboundCount(events: readonly SwitchboardEvent[], count: number) {
  return waitFor(() => inboundTexts(events).length >= count, 8_000, `${count} inbound`);
}

describe('inbound to an address no customer has, through each adapter and its fake', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('BlueBubbles without `address`: the Mac’s detected account is kept, then delivered once assigned', async () => {
    const MAC = '+14155550100';
    const DETECTED = 'mac@icloud.com';
    const fake = new FakeBlueBubbles({ stepMs: 5, switches: PRIVATE_API_ENABLED });
    await fake.start();
    cleanups.push(() => fake.stop());
    const { t } = await buildListeningApp({ INSTANCE_HEALTH_INTERVAL_MS: '100000' });
    cleanups.push(() => t.close());
    // The instance the new user made: no `address`, so it answers for the detected account.
    const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
      name: 'mac',
      provider: 'bluebubbles',
      channels: ['imessage'],
      config: { serverUrl: fake.baseUrl, password: fake.password },
    });
    const customer = await adminPost<{ id: string }>(t.app, '/admin/v1/customers', {
      name: 'Acme',
    });
    await assignNumber(t.app, customer.id, { phoneNumber: MAC, instanceId: instance.id });
    const events = recordedEvents(t.app, customer.id);
    await waitFor(() => fake.webhookUrls().includes(instance.ingressUrl), 5_000, 'webhook');

    fake.inbound({ from: CONTACT, to: MAC, text: 'Is anyone there?' });
    await waitFor(async () => (await listUnrouted(t.app)).total === 1, 5_000, 'kept');
    // Only one of the Mac's addresses so far: nothing to say about them.
    expect((await instanceWarnings(t.app, instance.id)).join('\n')).not.toContain('several');
    // Another contact writes to the Mac's e-mail alias.
    fake.inbound({ from: FRIEND, to: 'alias@icloud.com', text: 'Hello?' });
    const kept = await waitFor(async () => {
      const list = await listUnrouted(t.app);
      return list.total === 2 && list.items.length === 2 ? list : undefined;
    });
    expect(kept.items.map((item) => [item.address, item.kind, item.from, item.reason])).toEqual([
      [DETECTED, 'message.inbound', CONTACT, 'address_not_assigned'],
      [DETECTED, 'message.inbound', FRIEND, 'address_not_assigned'],
    ]);
    expect(await metricValue(t.app, 'switchboard_inbound_unrouted_kept')).toBe(2);
    const warnings = (await instanceWarnings(t.app, instance.id)).join('\n');
    expect(warnings).toContain(
      `2 inbound items kept for addresses no customer has on this instance: ${DETECTED} (2)`,
    );
    expect(warnings).toContain(
      `Inbound messages arrive for several addresses of the Mac (${MAC}, alias@icloud.com) and the instance has no \`address\``,
    );
    expect(events).toEqual([]);

    // The operator gives the customer's number the Mac's account as its e-mail address.
    await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${customer.id}/numbers/${encodeURIComponent(MAC)}`,
      headers: adminHeaders,
    });
    await assignNumber(t.app, customer.id, {
      phoneNumber: MAC,
      email: DETECTED,
      instanceId: instance.id,
    });
    await inboundCount(events, 2);
    expect(inboundTexts(events)).toEqual([
      ['Is anyone there?', DETECTED],
      ['Hello?', DETECTED],
    ]);
    await noneKept(t.app);
  });

  it('Twilio: a second number of the account, with its MMS, is kept, then delivered once assigned', async () => {
    const NUMBER = '+14155550100';
    const SECOND = '+14155550101';
    const fake = new FakeTwilio({ stepMs: 5 });
    await fake.start();
    cleanups.push(() => fake.stop());
    const { t } = await buildListeningApp({ PROVIDER_HTTP_TIMEOUT_MS: '2000' });
    cleanups.push(() => t.close());
    const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
      name: 'twilio',
      provider: 'twilio',
      channels: ['sms'],
      config: {
        accountSid: fake.accountSid,
        authToken: fake.authToken,
        apiBaseUrl: fake.baseUrl,
        lookupBaseUrl: fake.baseUrl,
      },
    });
    fake.addNumber(NUMBER, instance.ingressUrl);
    fake.addNumber(SECOND, instance.ingressUrl);
    const customer = await adminPost<{ id: string }>(t.app, '/admin/v1/customers', {
      name: 'Acme',
    });
    await assignNumber(t.app, customer.id, { phoneNumber: NUMBER, instanceId: instance.id });
    const events = recordedEvents(t.app, customer.id);

    const photo = new Uint8Array([255, 216, 255, 224, 1, 2]);
    const first = await fake.inbound({
      from: CONTACT,
      to: SECOND,
      body: 'photo',
      media: [{ contentType: 'image/jpeg', data: photo }],
    });
    // Twilio is answered as usual: the message is the gateway's to keep.
    expect(first.status).toBe(200);
    await fake.inbound({ from: CONTACT, to: SECOND, body: 'and text' });
    const kept = await listUnrouted(t.app, { address: SECOND });
    expect(kept.items.map((item) => [item.kind, item.channel, item.from])).toEqual([
      ['message.inbound', 'sms', CONTACT],
      ['message.inbound', 'sms', CONTACT],
    ]);
    expect(
      await metricValue(t.app, 'switchboard_inbound_unrouted_total{kind="message.inbound"}'),
    ).toBe(2);

    await assignNumber(t.app, customer.id, { phoneNumber: SECOND, instanceId: instance.id });
    await inboundCount(events, 2);
    expect(inboundTexts(events)).toEqual([
      ['photo', SECOND],
      ['and text', SECOND],
    ]);
    const [withPhoto] = events.filter(
      (event): event is Inbound => event.type === 'message.inbound',
    );
    const download = await fetch(withPhoto?.data.attachments[0]?.downloadUrl ?? '');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(photo);
  });

  it('Baileys: what reaches a paired number after it was withdrawn is kept, then delivered once assigned again', async () => {
    const WA = '+14155550170';
    const network = fakeWhatsApp([
      { phoneNumber: WA, lid: '90000000000170@lid' },
      { phoneNumber: CONTACT, lid: '90000000000111@lid' },
    ]);
    const t: TestApp = await fakeWhatsAppGateway(network, { dir: tempDir() });
    cleanups.push(() => t.close());
    const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
      name: 'whatsapp',
      provider: 'baileys',
      channels: ['whatsapp'],
    });
    const customer = await adminPost<{ id: string }>(t.app, '/admin/v1/customers', {
      name: 'Acme',
    });
    const key = await adminPost<{ key: string }>(
      t.app,
      `/admin/v1/customers/${customer.id}/api-keys`,
    );
    await assignNumber(t.app, customer.id, { phoneNumber: WA, instanceId: instance.id });
    const acme = customerHelpers(t, customer.id, key.key);
    await pairByQr(acme, network, WA);

    // The operator withdraws the number; the phone stays linked and messages keep coming.
    await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/customers/${customer.id}/numbers/${encodeURIComponent(WA)}`,
      headers: adminHeaders,
    });
    await network.receive(WA, { from: CONTACT, text: 'still there?' });
    await network.receive(WA, { from: CONTACT, text: 'hello?' });
    const kept = await waitFor(async () => {
      const list = await listUnrouted(t.app, { instanceId: instance.id });
      return list.total === 2 && list.items.length === 2 ? list : undefined;
    });
    expect(kept.items.map((item) => [item.kind, item.channel, item.reason])).toEqual([
      ['message.inbound', 'whatsapp', 'address_not_assigned'],
      ['message.inbound', 'whatsapp', 'address_not_assigned'],
    ]);
    expect((await instanceWarnings(t.app, instance.id)).join('\n')).toContain(
      '2 inbound items kept',
    );
    expect(inboundTexts(acme.events)).toEqual([]);

    await assignNumber(t.app, customer.id, { phoneNumber: WA, instanceId: instance.id });
    await inboundCount(acme.events, 2);
    expect(inboundTexts(acme.events)).toEqual([
      ['still there?', WA],
      ['hello?', WA],
    ]);
    await noneKept(t.app);
  });
});
