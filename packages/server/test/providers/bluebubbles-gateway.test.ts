import type { Instance, Message, SwitchboardEvent } from '@switchboard/contract';
import {
  FakeBlueBubbles,
  type FakeBlueBubblesSwitches,
  PRIVATE_API_ENABLED,
} from '@switchboard/testing/bluebubbles';
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

/**
 * The gateway on a real port with a BlueBubbles instance on the fake Mac, and a customer. The
 * Mac's `switches` are set before the instance starts: the adapter reuses `/server/info` for 30 s,
 * so a switch flipped after its first health probe would not be seen.
 */
async function macWorld(
  channels: readonly string[] = ['imessage'],
  switches: Partial<FakeBlueBubblesSwitches> = {},
): Promise<MacWorld> {
  const fake = new FakeBlueBubbles({
    stepMs: 5,
    switches: { ...PRIVATE_API_ENABLED, ...switches },
  });
  await fake.start();
  fake.addChat(`iMessage;-;${CONTACT}`, [CONTACT]);
  const { t, origin } = await buildListeningApp({ INSTANCE_HEALTH_INTERVAL_MS: '100' });
  const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
    name: 'mac',
    provider: 'bluebubbles',
    channels,
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
    w.fake.switches.serverVersion = '1.10.0';
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

  it('creates a group, and receives a contact’s message with a photo', async () => {
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
  });

  it('reports a FaceTime ring from a default server, which posts only `incoming-facetime` (a JSON string)', async () => {
    await waitFor(() => w.fake.webhookUrls().includes(w.instance.ingressUrl), 5_000, 'webhook');
    w.fake.faceTime({ caller: CONTACT, isVideo: false });
    await w.fake.settled();
    expect(w.fake.webhookCalls.map((call) => call.type)).toEqual(['incoming-facetime']);
    expect(typeof w.fake.webhookCalls[0]?.data).toBe('string');
    const ring = await eventOf('facetime.incoming');
    expect(ring).toMatchObject({ caller: CONTACT, to: MAC, isVideo: true, isAudio: false });
    expect((ring as { callUuid: string }).callUuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-5/);
    expect((ring as { timestamp: number }).timestamp).toBeGreaterThan(0);
    expect(w.events.some((event) => event.type === 'facetime.status_changed')).toBe(false);
  });

  it('reports a FaceTime call’s ring and end when FaceTime Calling is on (`ft-call-status-changed` only)', async () => {
    await waitFor(() => w.fake.webhookUrls().includes(w.instance.ingressUrl), 5_000, 'webhook');
    w.fake.switches.faceTimeCalling = true;
    const uuid = w.fake.faceTime({
      caller: CONTACT,
      isVideo: true,
      statuses: ['incoming', 'answered', 'disconnected'],
    });
    await w.fake.settled();
    expect(w.fake.webhookCalls.map((call) => call.type)).toEqual([
      'ft-call-status-changed',
      'ft-call-status-changed',
    ]);
    expect(await eventOf('facetime.incoming')).toMatchObject({ callUuid: uuid, caller: CONTACT });
    expect(await eventOf('facetime.status_changed')).toMatchObject({
      callUuid: uuid,
      status: 'disconnected',
    });
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

describe('the BlueBubbles adapter against what the real server does (issue 52)', () => {
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
  const send = async (body: Record<string, unknown>) =>
    expectSuccess<{ id: string }>(await api('POST', '/v1/messages', body), 202);
  const hooked = () =>
    waitFor(() => w.fake.webhookUrls().includes(w.instance.ingressUrl), 5_000, 'webhook');
  const memo = {
    type: 'base64',
    data: Buffer.from('ID3 fake mp3').toString('base64'),
    mimeType: 'audio/mpeg',
    filename: 'memo.mp3',
    isAudioMessage: true,
  };

  afterEach(async () => {
    await w.t.close();
    await w.fake.stop();
  });

  it('stops typing without calling upstream’s stop route, which starts typing', async () => {
    w = await macWorld();
    const group = expectSuccess<{ chatId: string }>(
      await api('POST', '/v1/chats/groups', { participants: [CONTACT, FRIEND], name: 'Dinner' }),
      201,
    );
    const path = `/v1/chats/${encodeURIComponent(group.chatId)}/typing`;
    expect(expectSuccess(await api('POST', path, { status: 'stop' }))).toMatchObject({
      typing: false,
    });
    expect(w.fake.calls).not.toContain('DELETE /chat/:guid/typing');
    expect(w.fake.typing.get(group.chatId)).toBeUndefined();
    expectSuccess(await api('POST', path, { status: 'start' }));
    expect(w.fake.typing.get(group.chatId)).toBe(true);
  });

  it('reports a group photo change as chat.photo.changed, not as a member leaving', async () => {
    w = await macWorld();
    await hooked();
    const group = expectSuccess<{ chatId: string }>(
      await api('POST', '/v1/chats/groups', { participants: [CONTACT, FRIEND], name: 'Dinner' }),
      201,
    );
    w.fake.groupChange({ chatGuid: group.chatId, actor: CONTACT, action: 'photo' });
    w.fake.groupChange({ chatGuid: group.chatId, actor: FRIEND, action: 'photo-removed' });
    await waitFor(
      () => w.events.filter((event) => event.type === 'chat.photo.changed').length === 2,
      8_000,
      'two photo changes',
    );
    // The fake posts each change in a request of its own without waiting for the previous one's
    // answer, so the two may be recorded in either order: each is checked by its actor.
    const photos = w.events.filter((event) => event.type === 'chat.photo.changed');
    for (const actor of [CONTACT, FRIEND]) {
      expect(photos.filter((event) => event.data.actor === actor)).toMatchObject([
        { data: { chatId: group.chatId, actor, channel: 'imessage' } },
      ]);
    }
    expect(w.events.some((event) => event.type === 'chat.participant.left')).toBe(false);
  });

  it('reports a contact keeping a voice memo as message.audio_kept', async () => {
    w = await macWorld();
    await hooked();
    const accepted = await send({ to: CONTACT, attachments: [memo] });
    const sent = await settled(accepted.id, 'read');
    w.fake.audioKept({ from: CONTACT, target: sent.externalId ?? '' });
    expect(await eventOf('message.audio_kept')).toMatchObject({
      data: {
        targetMessageId: accepted.id,
        targetExternalId: sent.externalId,
        from: CONTACT,
        to: MAC,
        channel: 'imessage',
      },
    });
  });

  it('refuses emoji tapbacks without asking a server that cannot take them, and sends them once it says it can', async () => {
    w = await macWorld();
    const accepted = await send({ to: CONTACT, content: { text: 'Party?' } });
    await settled(accepted.id, 'read');
    // A server that would take them but reports 1.9.9 (whose validator refuses them) is not tried.
    w.fake.switches.emojiTapbacks = true;
    const refused = await api('POST', `/v1/messages/${accepted.id}/reactions`, { type: '🎉' });
    expectFailure(refused, 400, 'CHANNEL_NOT_SUPPORTED');
    expect(refused.json().error.message).toMatch(/1\.9\.9/);
    expect(w.fake.calls).not.toContain('POST /message/react');
    w.fake.switches.serverVersion = '1.10.0';
    const taken = await api('POST', `/v1/messages/${accepted.id}/reactions`, { type: '🎉' });
    expect(taken.statusCode).toBe(200);
    expect(w.fake.calls).toContain('POST /message/react');
  });

  it('keeps the effect of the first message to a new contact (/chat/new takes effectId)', async () => {
    w = await macWorld();
    const stranger = '+14155550177';
    const accepted = await send({ to: stranger, content: { text: 'Surprise' }, effect: 'slam' });
    const sent = await settled(accepted.id, 'sent');
    expect(w.fake.messages.get(sent.externalId ?? '')?.expressiveSendStyleId).toBe(
      'com.apple.MobileSMS.expressivesend.impact',
    );
  });

  it('reports an SMS in a macOS 26 `any;-;` chat on channel sms (the service is the handle’s)', async () => {
    w = await macWorld(['imessage', 'sms']);
    await hooked();
    w.fake.switches.anyGuids = true;
    const inbound = w.fake.inbound({ from: FRIEND, text: 'Green bubble', service: 'SMS' });
    expect(inbound.chatGuid).toBe(`any;-;${FRIEND}`);
    expect(await eventOf('message.inbound')).toMatchObject({
      data: { from: FRIEND, channel: 'sms', text: 'Green bubble' },
    });
  });

  it('does not claim a voice memo without the Private API: refused, never sent as a plain file', async () => {
    w = await macWorld(['imessage'], { privateApi: false });
    const accepted = await send({ to: CONTACT, attachments: [memo] });
    const failed = await settled(accepted.id, 'failed');
    // The recipient's iMessage reachability is unknown without the Private API, so iMessage is
    // tried (decision 0480) and refuses the memo (SMS fallback allowed, where it is a plain file by
    // spec rule 7; this iMessage-only instance has none): the refusal is the message's failure,
    // and nothing went out as a plain file.
    expect(failed.errorCode).toBe('IMESSAGE_SEND_FAILED');
    expect(failed.errorMessage).toMatch(/Private API/);
    expect(w.fake.calls).not.toContain('POST /message/attachment');
    expect(w.fake.sent().filter((m) => m.attachments.length > 0)).toEqual([]);
  });

  it('downloads the original file of an inbound attachment, with the type the Mac serves', async () => {
    w = await macWorld();
    await hooked();
    const heic = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 104, 101, 105, 99]);
    w.fake.inbound({
      from: CONTACT,
      attachments: [{ mimeType: 'image/heic', name: 'IMG_3.HEIC', data: heic }],
    });
    const inbound = (await eventOf('message.inbound')) as {
      data: { attachments: { downloadUrl: string; mimeType: string }[] };
    };
    expect(inbound.data.attachments[0]?.mimeType).toBe('image/heic');
    const download = await fetch(inbound.data.attachments[0]?.downloadUrl ?? '');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(heic);
  });

  it('passes isAudioMessage on iMessage only: on SMS a voice memo is a plain file (spec rule 7)', async () => {
    w = await macWorld(['imessage', 'sms']);
    w.fake.addChat(`SMS;-;${CONTACT}`, [CONTACT]);
    const sms = await send({ to: CONTACT, attachments: [memo], routing: { preference: ['sms'] } });
    const onSms = await settled(sms.id, 'delivered');
    expect(onSms.channel).toBe('sms');
    const smsMessage = w.fake.messages.get(onSms.externalId ?? '');
    expect(smsMessage?.chatGuid).toBe(`SMS;-;${CONTACT}`);
    expect(smsMessage?.isAudioMessage).toBe(false);
    const plain = await send({ to: CONTACT, attachments: [{ ...memo, isAudioMessage: false }] });
    const onIMessage = await settled(plain.id, 'read');
    expect(w.fake.messages.get(onIMessage.externalId ?? '')?.isAudioMessage).toBe(false);
    const voice = await send({ to: CONTACT, attachments: [memo] });
    const asMemo = await settled(voice.id, 'read');
    expect(w.fake.messages.get(asMemo.externalId ?? '')?.isAudioMessage).toBe(true);
  });

  it('sends one SMS per attachment, after the text, even with the Private API (spec rule 5)', async () => {
    w = await macWorld(['imessage', 'sms']);
    const chat = `SMS;-;${CONTACT}`;
    w.fake.addChat(chat, [CONTACT]);
    const image = (name: string) => ({
      type: 'base64',
      data: Buffer.from(name).toString('base64'),
      mimeType: 'image/png',
      filename: name,
    });
    const accepted = await send({
      to: CONTACT,
      content: { text: 'Two photos' },
      attachments: [image('a.png'), image('b.png')],
      routing: { preference: ['sms'] },
    });
    await settled(accepted.id, 'delivered');
    const inChat = w.fake.sent().filter((m) => m.chatGuid === chat);
    expect(inChat.map((m) => [m.text, m.attachments.map((a) => a.transferName)])).toEqual([
      ['Two photos', []],
      ['\ufffc', ['a.png']],
      ['\ufffc', ['b.png']],
    ]);
    expect(w.fake.calls).not.toContain('POST /message/multipart');
  });

  it('creates an iMessage group with two other members and says which first message it sent', async () => {
    w = await macWorld();
    const one = await api('POST', '/v1/chats/groups', { participants: [CONTACT], name: 'Solo' });
    expectFailure(one, 400, 'VALIDATION_ERROR');
    expect(w.fake.calls).not.toContain('POST /chat/new');
    const named = expectSuccess<{ chatId: string; firstMessage?: string }>(
      await api('POST', '/v1/chats/groups', { participants: [CONTACT, FRIEND], name: 'Dinner' }),
      201,
    );
    expect(named.firstMessage).toBe('Dinner');
    const unnamed = expectSuccess<{ chatId: string; firstMessage?: string }>(
      await api('POST', '/v1/chats/groups', { participants: [CONTACT, FRIEND] }),
      201,
    );
    expect(unnamed.firstMessage).toBe('👋');
    const sent = w.fake.sent().filter((m) => m.chatGuid === unnamed.chatId);
    expect(sent.map((m) => m.text)).toEqual(['👋']);
  });
});
