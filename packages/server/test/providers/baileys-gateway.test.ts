import type {
  Instance,
  Message,
  QrCode,
  SignupCodes,
  SwitchboardEvent,
  WhatsAppChat,
  WhatsAppSessionState,
  WhatsAppStatusData,
} from '@switchboard/contract';
import { FakeWhatsAppNetwork } from '@switchboard/provider-baileys/fake-socket';
import { systemTimerClock } from '@switchboard/provider-kit';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock';
import { createDefaultProviderRegistry } from '../../src/wiring/default-provider-registry';
import { customerHelpers, eventually, type TestCustomer } from '../chats/chat-test-app';
import { observe, ofType } from '../inbound/observers';
import { adminPost, createCustomerWithNumber } from '../support/admin-helpers';
import { buildTestApp, type TestApp, tempDir } from '../support/test-app';

const WA = '+14155550170';
const CONTACT = '+14155550171';
const MEMBER = '+14155550172';
const NEWCOMER = '+14155550173';
const NEWCOMER_LID = '90000000000173@lid';
const PATH = `/v1/whatsapp/numbers/${WA.slice(1)}`;

/** WhatsApp itself, shared by every server built on it (as the real one outlives restarts). */
function whatsapp(options: { answerDelayMs?: number } = {}): FakeWhatsAppNetwork {
  return new FakeWhatsAppNetwork(systemTimerClock, { receiptDelayMs: 5, ...options })
    .addUser({ phoneNumber: WA, lid: '90000000000170@lid' })
    .addUser({ phoneNumber: CONTACT, lid: '90000000000171@lid' })
    .addUser({ phoneNumber: MEMBER, lid: '90000000000172@lid' })
    .addUser({ phoneNumber: NEWCOMER, lid: NEWCOMER_LID });
}

/** The gateway with the built-in adapters, Baileys on the fake socket, on `dir`'s database. */
function gateway(network: FakeWhatsAppNetwork, dir: string): Promise<TestApp> {
  return buildTestApp({
    dir,
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      LOG_LEVEL: 'warn',
      // The test polls the API every few milliseconds: not the limit under test.
      RATE_LIMIT_PER_MINUTE: '100000',
    },
    overrides: {
      providerRegistry: createDefaultProviderRegistry({
        simulatorStepMs: 0,
        clock: new ManualClock(Date.now()),
        baileys: {
          socketFactory: network.socketFactory,
          download: network.download,
          reconnectDelaysMs: [20],
          leaseRetryMs: 20,
        },
      }),
    },
  });
}

async function baileysCustomer(t: TestApp): Promise<TestCustomer> {
  const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
    name: 'whatsapp',
    provider: 'baileys',
    channels: ['whatsapp'],
    config: { pacing: { perSecond: 0, concurrency: 4 } },
  });
  const { customerId, key } = await createCustomerWithNumber(t.app, 'Acme', WA, instance.id);
  return customerHelpers(t, customerId, key);
}

/** Waits until the session of {@link WA} is in `status`, as the API answers it. */
function sessionIn(customer: TestCustomer, status: WhatsAppSessionState['status']) {
  return eventually(async () => {
    const state = await customer.ok<WhatsAppSessionState>('GET', `${PATH}/status`);
    return state.status === status ? state : undefined;
  });
}

/** Enables the session of {@link WA} and scans its QR code with the phone. */
async function pairByQr(customer: TestCustomer, network: FakeWhatsAppNetwork): Promise<void> {
  await customer.ok('POST', `${PATH}/enable`);
  await sessionIn(customer, 'qr_pending');
  await network.scanQr(WA);
  await sessionIn(customer, 'connected');
}

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
});
