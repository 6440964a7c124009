import type {
  Instance,
  Message,
  NumberSendPolicy,
  QrCode,
  SignupCodes,
  SwitchboardEvent,
  WhatsAppChat,
  WhatsAppSessionState,
  WhatsAppStatusData,
} from '@switchboard/contract';
import type { FakeWhatsAppNetwork } from '@switchboard/provider-baileys/fake-socket';
import { describe, expect, it } from 'vitest';
import { customerHelpers, eventually, type TestCustomer } from '../chats/chat-test-app';
import { observe, ofType } from '../inbound/observers';
import { adminHeaders, adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import { expectSuccess } from '../support/envelope-assertions';
import {
  fakeWhatsApp,
  fakeWhatsAppGateway,
  pairByQr as pairNumber,
  sessionIn as sessionOf,
} from '../support/fake-whatsapp-gateway';
import { mediaSamples } from '../support/media-samples';
import { type TestApp, tempDir } from '../support/test-app';

const WA = '+14155550170';
const CONTACT = '+14155550171';
const MEMBER = '+14155550172';
const NEWCOMER = '+14155550173';
const NEWCOMER_LID = '90000000000173@lid';
const PATH = `/v1/whatsapp/numbers/${WA.slice(1)}`;
const samples = mediaSamples();

/** WhatsApp itself, shared by every server built on it (as the real one outlives restarts). */
function whatsapp(options: { answerDelayMs?: number } = {}): FakeWhatsAppNetwork {
  return fakeWhatsApp(
    [
      { phoneNumber: WA, lid: '90000000000170@lid' },
      { phoneNumber: CONTACT, lid: '90000000000171@lid' },
      { phoneNumber: MEMBER, lid: '90000000000172@lid' },
      { phoneNumber: NEWCOMER, lid: NEWCOMER_LID },
    ],
    options,
  );
}

/** The gateway with the built-in adapters, Baileys on the fake socket, on `dir`'s database. */
function gateway(
  network: FakeWhatsAppNetwork,
  dir: string,
  env: Record<string, string> = {},
): Promise<TestApp> {
  return fakeWhatsAppGateway(network, {
    dir,
    env: { ...env, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_POLL_INTERVAL_MS: '20' },
  });
}

async function baileysCustomer(t: TestApp): Promise<TestCustomer & { instanceId: string }> {
  const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
    name: 'whatsapp',
    provider: 'baileys',
    channels: ['whatsapp'],
    config: { pacing: { perSecond: 0, concurrency: 4 } },
  });
  const { customerId, key } = await createCustomerWithNumber(t.app, 'Acme', WA, instance.id);
  return { ...customerHelpers(t, customerId, key), instanceId: instance.id };
}

/** The instance's health warnings after a health check now, as the operator API shows them. */
async function healthWarnings(t: TestApp, instanceId: string): Promise<string[]> {
  await t.app.services.providers.checkInstanceHealth(instanceId);
  const response = await t.app.inject({
    url: `/admin/v1/instances/${instanceId}`,
    headers: adminHeaders,
  });
  return expectSuccess<Instance>(response).healthWarnings;
}

/** Waits until the session of {@link WA} is in `status`, as the API answers it. */
const sessionIn = (customer: TestCustomer, status: WhatsAppSessionState['status']) =>
  sessionOf(customer, WA, status);

/** Enables the session of {@link WA} and scans its QR code with the phone. */
const pairByQr = (customer: TestCustomer, network: FakeWhatsAppNetwork) =>
  pairNumber(customer, network, WA);

const statuses = (events: readonly SwitchboardEvent[]): WhatsAppStatusData[] =>
  events.flatMap((event) => (event.type === 'whatsapp.status' ? [event.data] : []));

describe('WhatsApp through the Baileys adapter and a fake socket, end to end', () => {
  it('pairs by QR (seen on the stream), sends and receives, reconnects after a restart without a QR, and logs out', async () => {
    const network = whatsapp();
    const dir = tempDir();
    const t = await gateway(network, dir);
    const acme = await baileysCustomer(t);
    const observed = await observe(t.app, acme);

    await acme.ok('POST', `${PATH}/enable`);
    const qrPending = await eventually(() =>
      statuses(observed.stream).find((s) => s.status === 'qr_pending'),
    );
    expect(qrPending.qrCode).toMatch(/^2@/);
    expect((await acme.ok<QrCode>('GET', `${PATH}/qr`)).qrCode).toBe(qrPending.qrCode);
    await network.scanQr(WA);
    const connected = await eventually(() =>
      statuses(observed.stream).find((s) => s.status === 'connected'),
    );
    expect(connected.jid).toBe('14155550170@s.whatsapp.net');
    expect(statuses(observed.stream).map((s) => s.status)).toEqual([
      'connecting',
      'qr_pending',
      'connecting',
      'connected',
    ]);

    // A send goes out through the socket and is read.
    const accepted = await acme.ok<{ id: string }>(
      'POST',
      '/v1/messages',
      {
        to: CONTACT,
        content: { text: 'Hello over WhatsApp' },
        routing: { preference: ['whatsapp'] },
      },
      202,
    );
    const read = await eventually(async () => {
      const message = await acme.ok<Message>('GET', `/v1/messages/${accepted.id}`);
      return message.status === 'read' ? message : undefined;
    });
    expect(read.channel).toBe('whatsapp');
    expect(network.socketOf(WA).sent.map((s) => s.content)).toEqual([
      { text: 'Hello over WhatsApp' },
    ]);
    expect(read.externalId).toBe(network.socketOf(WA).sent[0]?.message.key.id);

    // A tapback is the spec's emoji on WhatsApp.
    await acme.ok('POST', `/v1/messages/${accepted.id}/reactions`, { type: 'love' });
    expect(network.socketOf(WA).sent.at(-1)?.content).toMatchObject({ react: { text: '❤️' } });

    // Inbound reaches the webhook and the stream alike.
    await network.receive(WA, { from: CONTACT, text: 'Got it', pushName: 'Ana' });
    const inbound = await observed.both(ofType('message.inbound'));
    expect(inbound.data).toMatchObject({ from: CONTACT, channel: 'whatsapp' });

    // A verification code sent to the number is kept for the signup-codes endpoint.
    await network.receive(WA, { from: '+14155550199', text: 'Your WhatsApp code: 123-456' });
    const codes = await eventually(async () => {
      const listed = await acme.ok<SignupCodes>('GET', `${PATH}/signup-codes`);
      return listed.codes.length > 0 ? listed : undefined;
    });
    expect(codes.codes[0]).toMatchObject({
      code: '123456',
      channel: 'whatsapp',
      from: '+14155550199',
    });

    // A group: created through the socket, then a message into it.
    const group = await acme.ok<{ chatId: string }>(
      'POST',
      '/v1/chats/groups',
      { channel: 'whatsapp', participants: [CONTACT, MEMBER], name: 'Team', from: WA },
      201,
    );
    expect(group.chatId).toMatch(/@g\.us$/);
    expect(network.group(group.chatId)?.subject).toBe('Team');

    // A member added by someone else, known by @lid only, resolved when WhatsApp maps it.
    const chatUrl = `/v1/chats/${encodeURIComponent(group.chatId)}`;
    await network.groupParticipants(WA, group.chatId, CONTACT, 'add', [NEWCOMER], true);
    const unresolved = { handle: NEWCOMER_LID, isPhoneResolved: false, admin: null };
    await eventually(async () => {
      const chat = await acme.ok<WhatsAppChat>('GET', chatUrl);
      return chat.participants.some((p) => p.handle === NEWCOMER_LID) ? chat : undefined;
    }).then((chat) => expect(chat.participants).toContainEqual(unresolved));
    await network.resolveLid(WA, NEWCOMER);
    const resolved = await eventually(async () => {
      const chat = await acme.ok<WhatsAppChat>('GET', chatUrl);
      return chat.participants.some((p) => p.handle === '14155550173@s.whatsapp.net')
        ? chat
        : undefined;
    });
    expect(resolved.participants).toContainEqual({
      handle: '14155550173@s.whatsapp.net',
      isPhoneResolved: true,
      admin: null,
    });
    expect(resolved.participants.some((p) => p.handle === NEWCOMER_LID)).toBe(false);

    // Restart: the stored (encrypted) credentials reconnect without a QR code.
    await t.close();
    const sockets = network.sockets.length;
    const again = await gateway(network, dir);
    const acmeAgain = customerHelpers(again, acme.customerId, acme.key);
    await sessionIn(acmeAgain, 'connected');
    expect(network.sockets.length).toBe(sockets + 1);
    expect(network.sockets.slice(sockets).every((socket) => !socket.showingQr)).toBe(true);

    // Logout wipes them: the phone no longer lists the device, the next enable needs a QR.
    expect(await acmeAgain.ok('DELETE', PATH)).toEqual({ phoneNumber: WA, deleted: true });
    expect(network.openSockets()).toEqual([]);
    await acmeAgain.ok('POST', `${PATH}/enable`);
    await sessionIn(acmeAgain, 'qr_pending');
    await again.close();
  });

  it('announces what WhatsApp held while the socket was away (an append after reconnecting), verification codes included, and imports no history', async () => {
    const network = whatsapp();
    const t = await gateway(network, tempDir());
    const acme = await baileysCustomer(t);
    await pairByQr(acme, network);
    const observed = await observe(t.app, acme);
    // The phone's history sync: not imported.
    await network.history(WA, [{ from: MEMBER, text: 'from before linking' }]);
    // The connection drops; the socket comes back and WhatsApp hands over what it held.
    await network.dropConnection(WA, 428);
    await eventually(() =>
      network.openSockets().length === 1 && network.socketOf(WA).user ? true : undefined,
    );
    await sessionIn(acme, 'connected');
    await network.receiveWhileOffline(WA, { from: CONTACT, text: 'Sent while you were away' });
    await network.receiveWhileOffline(WA, {
      from: '+14155550198',
      text: 'Your WhatsApp code: 654-321',
    });
    const held = await observed.both(
      ofType('message.inbound', (event) => event.data.from === CONTACT),
    );
    expect(held.data).toMatchObject({ from: CONTACT, channel: 'whatsapp' });
    const codes = await eventually(async () => {
      const listed = await acme.ok<SignupCodes>('GET', `${PATH}/signup-codes`);
      return listed.codes.length > 0 ? listed : undefined;
    });
    expect(codes.codes[0]).toMatchObject({ code: '654321', from: '+14155550198' });
    expect(
      observed
        .webhook()
        .some(
          (event) =>
            event.type === 'message.inbound' &&
            (event.data as { text?: string }).text === 'from before linking',
        ),
    ).toBe(false);
    await t.close();
  });

  it('applies the receipts that come before the send is recorded, each once, in order', async () => {
    // WhatsApp's server ack, delivery and read (5, 10 and 15 ms after the send) reach the
    // adapter before the send's answer (50 ms), so the gateway has no provider id for them yet.
    // They name the message only; the adapter adds the attempt, and the gateway keeps them for it
    // instead of finding no message with that id.
    const network = whatsapp({ answerDelayMs: 50 });
    const t = await gateway(network, tempDir());
    const acme = await baileysCustomer(t);
    await pairByQr(acme, network);
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      const body = { to: CONTACT, content: { text }, routing: { preference: ['whatsapp'] } };
      ids.push((await acme.ok<{ id: string }>('POST', '/v1/messages', body, 202)).id);
    }
    for (const id of ids) {
      const read = await eventually(async () => {
        const message = await acme.ok<Message>('GET', `/v1/messages/${id}`);
        return message.status === 'read' ? message : undefined;
      });
      expect(read.timeline.map((entry) => entry.status)).toEqual([
        'queued',
        'sent',
        'delivered',
        'read',
      ]);
    }
    await t.close();
  });

  it('stores secrets encrypted: the credentials never appear in the database file in the clear', async () => {
    const network = whatsapp();
    const dir = tempDir();
    const t = await gateway(network, dir);
    const acme = await baileysCustomer(t);
    await pairByQr(acme, network);
    await t.close();
    const { readFileSync, readdirSync } = await import('node:fs');
    const bytes = readdirSync(dir)
      .filter((name) => name.startsWith('switchboard.db'))
      .map((name) => readFileSync(`${dir}/${name}`).toString('latin1'))
      .join('');
    expect(bytes).not.toContain('noiseKey');
    expect(bytes).not.toContain('signedIdentityKey');
  });

  it('two servers on one database never open two sockets for one number: the second takes over when the first stops', async () => {
    const network = whatsapp();
    const dir = tempDir();
    const first = await gateway(network, dir);
    const acme = await baileysCustomer(first);
    await pairByQr(acme, network);

    // A second server process on the same database resumes the session at start: it waits,
    // without opening a socket (which would close the first one with 440).
    const opened = network.sockets.length;
    const second = await gateway(network, dir);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(network.sockets.length).toBe(opened);
    expect(network.openSockets()).toHaveLength(1);
    const acmeOnSecond = customerHelpers(second, acme.customerId, acme.key);
    expect((await acmeOnSecond.ok<WhatsAppSessionState>('GET', `${PATH}/status`)).status).toBe(
      'connected',
    );

    // A send the second process accepts is handed over through the database: it stays queued
    // until the first process, which holds the socket, takes it on its sweep.
    const handed = await acmeOnSecond.ok<{ id: string }>(
      'POST',
      '/v1/messages',
      {
        to: CONTACT,
        content: { text: 'Through the holder' },
        routing: { preference: ['whatsapp'] },
      },
      202,
    );
    await eventually(
      async () =>
        (await second.app.store.messages.findByIdInAnyCustomer(handed.id))?.status === 'read' ||
        undefined,
      15_000,
      'the handed-over send to be read',
    );
    const read = await acmeOnSecond.ok<Message>('GET', `/v1/messages/${handed.id}`);
    expect(read.channel).toBe('whatsapp');
    expect(network.socketOf(WA).sent.map((sent) => sent.content)).toEqual([
      { text: 'Through the holder' },
    ]);
    expect(network.sockets.length).toBe(opened);

    // The first stops (its lease is released): the second connects, from the stored credentials.
    await first.close();
    await eventually(
      () =>
        (network.openSockets().length === 1 && network.sockets.length === opened + 1) || undefined,
    );
    expect(network.openSockets()[0]?.showingQr).toBe(false);
    await second.close();
  });

  it("restricts the number after three of WhatsApp's 463 refusals: new contacts wait 24 h, people who wrote still get replies", async () => {
    // WhatsApp nacks a send to these with 463 (fake-baileys-socket: status ERROR, the code in
    // messageStubParameters, as Baileys' decode-wa-message.js reports a negative server ack).
    const refusing = ['+14155550181', '+14155550182', '+14155550183'];
    const stranger = '+14155550184';
    const network = whatsapp();
    for (const phoneNumber of refusing) {
      network.addUser({
        phoneNumber,
        lid: `900000000${phoneNumber.slice(-5)}@lid`,
        behaviour: 'fail',
      });
    }
    network.addUser({ phoneNumber: stranger, lid: '90000000000184@lid' });
    const t = await gateway(network, tempDir(), { SEND_POLICY_RECHECK_MS: '20' });
    const acme = await baileysCustomer(t);
    await pairByQr(acme, network);
    await network.receive(WA, { from: CONTACT, text: 'Are you open today?' });
    const send = (to: string) =>
      acme.ok<{ id: string }>(
        'POST',
        '/v1/messages',
        { to, content: { text: 'Hello' }, routing: { preference: ['whatsapp'] } },
        202,
      );
    const state = (id: string, done: (m: Message) => boolean) =>
      eventually(async () => {
        const message = await acme.ok<Message>('GET', `/v1/messages/${id}`);
        return done(message) ? message : undefined;
      });
    for (const to of refusing) {
      const failed = await state((await send(to)).id, (m) => m.status === 'failed');
      // The customer sees WhatsApp's code and reason.
      expect(failed.errorCode).toBe('NO_CHANNEL_AVAILABLE');
      expect(failed.errorMessage).toContain('error 463');
    }
    const cold = await send(stranger);
    const held = await state(cold.id, (m) => m.hold?.code === 'restricted');
    expect(held.status).toBe('queued');
    const policy = await acme.ok<NumberSendPolicy>('GET', `/v1/numbers/${WA.slice(1)}/send-policy`);
    // WhatsApp's defaults hold on a new number: day 1 of its warm-up, 20 new contacts a day.
    expect(policy.effective.find((e) => e.channel === 'whatsapp')).toMatchObject({
      dailyCap: 250,
      coldContactDailyCap: 20,
      dayInUse: 1,
      todaysCap: 20,
      usage: { sends: 3, coldContacts: 3 },
    });
    expect(policy.effective.find((e) => e.channel === 'whatsapp')?.restricted).toMatchObject({
      code: '463',
      until: held.hold?.until,
    });
    const restriction = policy.effective.find((e) => e.channel === 'whatsapp')?.restricted;
    // The operator sees why on the instance's health, with WhatsApp's code and the end.
    expect(await healthWarnings(t, acme.instanceId)).toContain(
      `WhatsApp restricted ${WA} (error 463: ${restriction?.reason ?? 'no reason given'}): messages to people who never wrote to it wait until ${held.hold?.until}`,
    );
    const reply = await send(CONTACT);
    await state(reply.id, (m) => m.status === 'read');
    t.clock.advance(24 * 60 * 60 * 1000);
    await state(cold.id, (m) => m.status === 'read');
    expect(
      (await healthWarnings(t, acme.instanceId)).some((w) => w.startsWith('WhatsApp restricted')),
    ).toBe(false);
    expect(
      (await acme.ok<NumberSendPolicy>('GET', `/v1/numbers/${WA.slice(1)}/send-policy`))
        .effective[0]?.restricted,
    ).toBeNull();
    await t.close();
  });

  it('sends an audio file without the voice-note flag as a document, and one with it as a voice note', async () => {
    const network = whatsapp();
    const t = await gateway(network, tempDir());
    const acme = await baileysCustomer(t);
    await pairByQr(acme, network);
    const mp3 = (await samples.sample('mp3')).toString('base64');
    const song = {
      type: 'base64',
      data: mp3,
      mimeType: 'audio/mpeg',
      filename: 'song.mp3',
    };
    const memo = {
      type: 'base64',
      data: mp3,
      mimeType: 'audio/mpeg',
      filename: 'memo.mp3',
      isAudioMessage: true,
    };
    for (const attachment of [song, memo]) {
      const accepted = await acme.ok<{ id: string }>(
        'POST',
        '/v1/messages',
        { to: CONTACT, attachments: [attachment], routing: { preference: ['whatsapp'] } },
        202,
      );
      await eventually(async () => {
        const message = await acme.ok<Message>('GET', `/v1/messages/${accepted.id}`);
        return ['sent', 'delivered', 'read'].includes(message.status) ? message : undefined;
      });
    }
    // What reached WhatsApp (Baileys' sendMessage content): the file without the flag as a
    // document with its name and type, never an `audio` message, which WhatsApp shows as a voice
    // note (decision 0449); the flagged one as a voice note (`ptt`), converted to Opus in Ogg.
    const [file, voiceNote] = network.socketOf(WA).sent.map((entry) => entry.content);
    expect(file).toMatchObject({ mimetype: 'audio/mpeg', fileName: 'song.mp3' });
    expect(file).toHaveProperty('document');
    expect(file).not.toHaveProperty('audio');
    expect(voiceNote).toHaveProperty('audio');
    expect(voiceNote).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' });
    await t.close();
  });

  it("maps WhatsApp's refusals through the API: a timeout is retried and sent once, a 403 fails with WhatsApp's code and reason", async () => {
    const network = whatsapp();
    const t = await gateway(network, tempDir(), { PROVIDER_RETRY_BASE_MS: '20' });
    const acme = await baileysCustomer(t);
    await pairByQr(acme, network);
    const send = async () =>
      (
        await acme.ok<{ id: string }>(
          'POST',
          '/v1/messages',
          { to: CONTACT, content: { text: 'Hello' }, routing: { preference: ['whatsapp'] } },
          202,
        )
      ).id;
    const settled = (id: string) =>
      eventually(async () => {
        const message = await acme.ok<Message>('GET', `/v1/messages/${id}`);
        return ['read', 'failed'].includes(message.status) ? message : undefined;
      });
    // Baileys' query timed out (Boom 408): PROVIDER_TIMEOUT, retryable; the retry goes out.
    network.refuseNext('sendMessage', 'timeout');
    const retried = await settled(await send());
    expect(retried.status).toBe('read');
    expect(network.socketOf(WA).sent).toHaveLength(1);
    // WhatsApp answered the query with 403: refused for good, its code and reason kept.
    network.refuseNext('sendMessage', 403, 'not-authorized');
    const refused = await settled(await send());
    expect(refused).toMatchObject({ status: 'failed', errorCode: 'IMESSAGE_SEND_FAILED' });
    expect(refused.errorMessage).toContain('403: not-authorized');
    expect(network.socketOf(WA).sent).toHaveLength(1);
    await t.close();
  });
});
