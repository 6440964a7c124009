import type { Instance, Message, SwitchboardEvent } from '@switchboard/contract';
import { FakeBlueBubbles } from '@switchboard/testing/bluebubbles';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders, adminPost, assignNumber } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildListeningApp } from '../support/listening-app';
import { recordedEvents } from '../support/simulator-app';
import { bearer, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const MAC = '+14155550100';
const CONTACT = '+14155550111';
const FRIEND = '+14155550133';

interface MacWorld {
  t: TestApp;
  fake: FakeBlueBubbles;
  instance: Instance;
  origin: string;
  key: string;
  events: SwitchboardEvent[];
}

/** The gateway on a real port with a BlueBubbles instance on the fake Mac, and a customer. */
async function macWorld(): Promise<MacWorld> {
  const fake = new FakeBlueBubbles({ stepMs: 5 });
  await fake.start();
  fake.addChat(`iMessage;-;${CONTACT}`, [CONTACT]);
  const { t, origin } = await buildListeningApp({ INSTANCE_HEALTH_INTERVAL_MS: '100' });
  const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
    name: 'mac',
    provider: 'bluebubbles',
    channels: ['imessage'],
    config: {
      serverUrl: fake.baseUrl,
      password: fake.password,
      address: MAC,
      pacing: { perSecond: 0, concurrency: 4 },
    },
  });
  const customer = await adminPost<{ id: string }>(t.app, '/admin/v1/customers', { name: 'Acme' });
  const apiKey = await adminPost<{ key: string }>(
    t.app,
    `/admin/v1/customers/${customer.id}/api-keys`,
  );
  await assignNumber(t.app, customer.id, {
    phoneNumber: MAC,
    instanceId: instance.id,
    isDefault: true,
  });
  const events = recordedEvents(t.app, customer.id);
  return { t, fake, instance, origin, key: apiKey.key, events };
}

describe('iMessage through the BlueBubbles adapter and the fake Mac, end to end', () => {
  let w: MacWorld;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    w.t.app.inject({ method, url, headers: bearer(w.key), ...(payload ? { payload } : {}) });
  const message = async (id: string) =>
    expectSuccess<Message>(await api('GET', `/v1/messages/${id}`));
  const settled = (id: string, status: Message['status']) =>
    waitFor(
      async () => {
        const current = await message(id);
        return current.status === status ? current : undefined;
      },
      8_000,
      `${id} ${status}`,
    );
  const eventOf = (type: string) =>
    waitFor(() => w.events.find((event) => event.type === type), 8_000, type);

  beforeEach(async () => {
    w = await macWorld();
  });

  afterEach(async () => {
    await w.t.close();
    await w.fake.stop();
  });

  it('registers the instance’s ingress URL with the Mac, sends, reacts, edits and unsends', async () => {
    await waitFor(() => w.fake.webhookUrls().includes(w.instance.ingressUrl), 5_000, 'webhook');
    const accepted = expectSuccess<{ id: string }>(
      await api('POST', '/v1/messages', { to: CONTACT, content: { text: 'Dinner at 8?' } }),
      202,
    );
    const read = await settled(accepted.id, 'read');
    expect(read).toMatchObject({ channel: 'imessage' });
    expect(w.fake.messages.get(read.externalId ?? '')?.text).toBe('Dinner at 8?');

    const love = await api('POST', `/v1/messages/${accepted.id}/reactions`, { type: 'love' });
    expect(expectSuccess(love)).toEqual({ messageId: accepted.id, reaction: 'love' });
    // This Mac runs a BlueBubbles Server that takes only the classic tapbacks.
    const emoji = await api('POST', `/v1/messages/${accepted.id}/reactions`, { type: '🎉' });
    expectFailure(emoji, 400, 'CHANNEL_NOT_SUPPORTED');
    w.fake.switches.emojiTapbacks = true;
    expect(
      (await api('POST', `/v1/messages/${accepted.id}/reactions`, { type: '🎉' })).statusCode,
    ).toBe(200);

    const edited = await api('PUT', `/v1/messages/${accepted.id}`, { text: 'Dinner at 9?' });
    expect(edited.statusCode).toBe(200);
    expect(w.fake.messages.get(read.externalId ?? '')?.text).toBe('Dinner at 9?');
    const unsent = await api('POST', `/v1/messages/${accepted.id}/unsend`);
    expect(unsent.statusCode).toBeLessThan(300);
    expect(w.fake.messages.get(read.externalId ?? '')?.dateRetracted).not.toBeNull();
  });

  it('creates a group, and receives a contact’s message with a photo and a FaceTime call', async () => {
    const group = expectSuccess<{ chatId: string }>(
      await api('POST', '/v1/chats/groups', { participants: [CONTACT, FRIEND], name: 'Dinner' }),
      201,
    );
    expect(group.chatId).toMatch(/^iMessage;\+;chat/);
    expect(w.fake.chats.get(group.chatId)?.displayName).toBe('Dinner');

    w.fake.inbound({
      from: CONTACT,
      text: 'Look',
      attachments: [
        { mimeType: 'image/jpeg', name: 'IMG_2.jpg', data: new Uint8Array([255, 216, 255, 224]) },
      ],
    });
    const inbound = await eventOf('message.inbound');
    const data = (inbound as { data: { from: string; attachments: { downloadUrl: string }[] } })
      .data;
    expect(data.from).toBe(CONTACT);
    const download = await fetch(data.attachments[0]?.downloadUrl ?? '');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(
      new Uint8Array([255, 216, 255, 224]),
    );

    w.fake.faceTime({ caller: CONTACT, isVideo: true });
    await eventOf('facetime.incoming');
    await eventOf('facetime.status_changed');
  });

  it('tells of a FaceTime ring whose call ended before the ring was handled', async () => {
    // BlueBubbles posts its webhooks concurrently: a call's later status can arrive first.
    const post = async (type: string, data: unknown) => {
      const response = await fetch(w.instance.ingressUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type, data }),
      });
      expect(response.status).toBeLessThan(300);
    };
    const call = (status: string, statusId: number) => ({
      uuid: 'D1E2F3A4-0000-4000-8000-0000000000AA',
      status,
      status_id: statusId,
      ended_error: null,
      ended_reason: null,
      address: CONTACT,
      handle: { address: CONTACT },
      image_url: null,
      is_outgoing: false,
      is_audio: false,
      is_video: true,
      url: null,
    });
    await post('ft-call-status-changed', call('disconnected', 6));
    await eventOf('facetime.status_changed');
    await post('ft-call-status-changed', call('incoming', 4));
    const ring = await eventOf('facetime.incoming');
    expect(ring).toMatchObject({
      callUuid: 'D1E2F3A4-0000-4000-8000-0000000000AA',
      caller: CONTACT,
    });
    // The same ring again is not told twice.
    await post('ft-call-status-changed', call('incoming', 4));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(w.events.filter((event) => event.type === 'facetime.incoming')).toHaveLength(1);
  });

  it('turns the instance degraded when the Mac’s helper disconnects, and healthy again when it is back', async () => {
    const health = async () =>
      expectSuccess<Instance>(
        await w.t.app.inject({
          method: 'GET',
          url: `/admin/v1/instances/${w.instance.id}`,
          headers: adminHeaders,
        }),
      );
    await waitFor(
      async () => (await health()).healthStatus === 'healthy',
      5_000,
      'healthy at start',
    );
    const accepted = expectSuccess<{ id: string }>(
      await api('POST', '/v1/messages', { to: CONTACT, content: { text: 'Hi' } }),
      202,
    );
    await settled(accepted.id, 'read');
    w.fake.switches.helperConnected = false;
    const degraded = await waitFor(
      async () => {
        const current = await health();
        return current.healthStatus === 'degraded' ? current : undefined;
      },
      5_000,
      'degraded',
    );
    expect(degraded.healthWarnings).toEqual([
      'Private API helper not connected (typing, reactions, read receipts and FaceTime events unavailable)',
    ]);
    // What needs the helper says so, instead of doing nothing.
    const tapback = await api('POST', `/v1/messages/${accepted.id}/reactions`, { type: 'like' });
    const failure = expectFailure(tapback, 400, 'CHANNEL_NOT_SUPPORTED');
    expect(failure.error.message).toMatch(/helper is not connected/);
    w.fake.switches.helperConnected = true;
    await waitFor(async () => (await health()).healthStatus === 'healthy', 5_000, 'healthy again');
  });

  it('loses nothing when webhooks are lost or doubled: reconciliation finds them, duplicates are dropped', async () => {
    await waitFor(() => w.fake.webhookUrls().length === 1, 5_000, 'webhook');
    w.fake.faults.loseWebhooks = 1;
    w.fake.faults.duplicateWebhooks = true;
    w.fake.inbound({ from: CONTACT, text: 'First' });
    w.fake.inbound({ from: CONTACT, text: 'Second' });
    w.fake.replayWeek();
    const texts = () =>
      w.events
        .filter((event) => event.type === 'message.inbound')
        .map((event) => (event as { data: { content?: { text?: string }; text?: string } }).data);
    // The health check (every 100 ms here) reconciles what the lost webhook said.
    await waitFor(() => texts().length >= 2, 8_000, 'both messages');
    await w.fake.settled();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(texts()).toHaveLength(2);
  });
});
