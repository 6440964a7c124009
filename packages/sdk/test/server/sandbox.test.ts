import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type MessageResponse,
  NotFoundError,
  type Switchboard,
} from '../../src/index';
import { clientFor } from '../support/customers';
import { collectEvents, type EventCollector, ofType } from '../support/event-collector';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

const OWNED = '+14155550100';
const SECOND = '+14155550101';
/** A happy iMessage contact (simulator row 00–09). */
const CONTACT = '+12125550104';
/** A WhatsApp contact (row 60–69). */
const WHATSAPP_CONTACT = '+14155550160';

let server: SwitchboardServer;
let client: Switchboard;
let stream: EventCollector;

beforeAll(async () => {
  server = await startServer({
    numbers: [OWNED, SECOND],
    // WhatsApp pairing gives up after 5 QR codes of 40 steps each: instant steps would end it.
    env: { SIMULATOR_STEP_MS: '25' },
  });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());
beforeEach(async () => {
  stream = await collectEvents(client);
});
afterEach(() => stream.close());

/** Sends and waits until the message reached one of `statuses`. */
async function sendUntil(
  params: Parameters<Switchboard['messages']['send']>[0],
  statuses: readonly MessageResponse['status'][],
): Promise<MessageResponse> {
  const sent = await client.messages.send(params);
  await expect
    .poll(async () => (await client.messages.get(sent.id)).status, { timeout: 5_000 })
    .toSatisfy((status: MessageResponse['status']) => statuses.includes(status));
  return client.messages.get(sent.id);
}

/** Waits until the WhatsApp session of `phoneNumber` reaches `status`. */
async function reach(phoneNumber: string, status: string): Promise<void> {
  await expect
    .poll(async () => (await client.whatsapp.status(phoneNumber)).status, { timeout: 5_000 })
    .toBe(status);
}

describe('client.sandbox: contacts acting on the simulator', () => {
  it('inboundMessage: the message arrives on the event stream and in the message list', async () => {
    const result = await client.sandbox.inboundMessage({
      channel: 'imessage',
      from: CONTACT,
      to: OWNED,
      text: 'Are we still on for 6?',
    });
    expect(result).toMatchObject({ suppressed: false, otp: null, attachments: [] });
    const inbound = await stream.waitFor(
      ofType('message.inbound', (e) => e.data.messageId === result.messageId),
    );
    expect(inbound.data).toMatchObject({
      from: CONTACT,
      to: OWNED,
      channel: 'imessage',
      text: 'Are we still on for 6?',
      externalMessageId: result.externalId,
    });
    expect(await client.messages.get(result.messageId)).toMatchObject({ direction: 'inbound' });
  });

  it('reaction: a contact’s tapback on a sent message is a message.reaction', async () => {
    const sent = await sendUntil({ to: CONTACT, content: { text: 'Dinner at 8?' } }, [
      'delivered',
      'read',
    ]);
    const reaction = await client.sandbox.reaction({
      channel: 'imessage',
      from: CONTACT,
      to: OWNED,
      messageId: sent.id,
      type: 'love',
    });
    expect(reaction).toMatchObject({ targetMessageId: sent.id, messageId: null });
    const event = await stream.waitFor(ofType('message.reaction'));
    expect(event.data).toMatchObject({
      from: CONTACT,
      to: OWNED,
      channel: 'imessage',
      reaction: { type: 'love', targetMessageId: sent.id },
    });
  });

  it('typing: a WhatsApp contact typing is a typing.indicator', async () => {
    const typing = await client.sandbox.typing({
      channel: 'whatsapp',
      from: WHATSAPP_CONTACT,
      to: OWNED,
      status: 'start',
    });
    expect(typing).toEqual({ status: 'start', emitted: true });
    const event = await stream.waitFor(ofType('typing.indicator'));
    expect(event.data).toMatchObject({ from: WHATSAPP_CONTACT, to: OWNED, status: 'start' });
  });

  it('messageStatus: a read receipt moves a delivered message to read', async () => {
    // Row 50–59: Focus mode on, delivered and never read by itself.
    const sent = await sendUntil({ to: '+12125550150', content: { text: 'ping' } }, ['delivered']);
    const receipt = await client.sandbox.messageStatus(sent.id, { status: 'read' });
    expect(receipt).toEqual({ messageId: sent.id, externalId: sent.externalId, status: 'read' });
    await stream.waitFor(ofType('message.read', (e) => e.data.messageId === sent.id));
    expect((await client.messages.get(sent.id)).status).toBe('read');
  });

  it('audioKept: a kept voice note is a message.audio_kept', async () => {
    const memo = await sendUntil(
      {
        to: CONTACT,
        attachments: [{ data: 'T2dnUw==', mimeType: 'audio/ogg', isAudioMessage: true }],
      },
      ['delivered', 'read'],
    );
    const kept = await client.sandbox.audioKept({ from: CONTACT, to: OWNED, messageId: memo.id });
    expect(kept.targetMessageId).toBe(memo.id);
    const event = await stream.waitFor(ofType('message.audio_kept'));
    expect(event.data).toMatchObject({ targetMessageId: memo.id, from: CONTACT, to: OWNED });
  });

  it('chatEvent: a contact renaming a group changes the chat and is emitted', async () => {
    const group = await client.chats.createGroup({
      participants: [CONTACT, '+12125550105'],
      name: 'Team',
    });
    const changed = await client.sandbox.chatEvent(group.chatId, {
      action: 'title.changed',
      actor: CONTACT,
      title: 'Launch crew',
    });
    expect(changed.chatId).toBe(group.chatId);
    const event = await stream.waitFor(ofType('chat.title.changed'));
    expect(JSON.stringify(event.data)).toContain('Launch crew');
    expect((await client.chats.get(group.chatId)).name).toBe('Launch crew');
  });

  it('faceTimeCall and faceTimeStatus: a call rings, is answered and ends', async () => {
    const call = await client.sandbox.faceTimeCall({ caller: CONTACT, to: OWNED, video: false });
    expect(call.status).toBe('incoming');
    const incoming = await stream.waitFor(
      ofType('facetime.incoming', (e) => e.callUuid === call.callUuid),
    );
    expect(incoming).toMatchObject({ caller: CONTACT, to: OWNED, isAudio: true });

    const answered = await client.sandbox.faceTimeStatus(call.callUuid, { status: 'answered' });
    expect(answered).toEqual({ callUuid: call.callUuid, status: 'answered' });
    await client.sandbox.faceTimeStatus(call.callUuid, { status: 'disconnected' });
    await stream.waitFor(ofType('facetime.status_changed', (e) => e.status === 'disconnected'));
    const ended = await client.sandbox
      .faceTimeStatus(call.callUuid, { status: 'missed' })
      .catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(BadRequestError);
    expect(ended).toMatchObject({ status: 400, code: 'INVALID_STATUS' });
  });

  it('answers NotFoundError for a number that is not the caller’s', async () => {
    const error = await client.sandbox
      .inboundMessage({ channel: 'sms', from: CONTACT, to: '+14155550199', text: 'hi' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', requestId: expect.any(String) });
  });
});

describe('client.sandbox: phones pairing WhatsApp', () => {
  it('whatsappScanQr connects the session; whatsappDropConnection drops it', async () => {
    await client.whatsapp.enable(OWNED);
    await reach(OWNED, 'qr_pending');
    const scanned = await client.sandbox.whatsappScanQr(OWNED);
    expect(scanned.phoneNumber).toBe(OWNED);
    await reach(OWNED, 'connected');
    await stream.waitFor(
      ofType(
        'whatsapp.status',
        (e) => e.data.phoneNumber === OWNED && e.data.status === 'connected',
      ),
    );

    const dropped = await client.sandbox.whatsappDropConnection(OWNED, {
      reason: 'connection_lost',
    });
    expect(dropped.whatsapp).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'connection_lost',
    });
    // Without a live session there is nothing to drop.
    const again = await client.sandbox
      .whatsappDropConnection(OWNED)
      .catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 400, code: 'INVALID_STATUS' });
  });

  it('whatsappEnterPairingCode connects with the code, refusing a wrong one', async () => {
    await client.whatsapp.enable(SECOND);
    await reach(SECOND, 'qr_pending');
    const { pairingCode } = await client.whatsapp.pairingCode(SECOND);
    const wrong = await client.sandbox
      .whatsappEnterPairingCode(SECOND, { code: 'AAAA-AAAA' })
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(BadRequestError);
    expect(wrong).toMatchObject({ code: 'VALIDATION_ERROR' });

    // Dashes and case do not matter.
    await client.sandbox.whatsappEnterPairingCode(SECOND, {
      code: pairingCode.replace('-', '').toLowerCase(),
    });
    await reach(SECOND, 'connected');
  });

  it('whatsappResolveLid turns an @lid group member into a phone JID', async () => {
    const group = await client.chats.createGroup({
      channel: 'whatsapp',
      name: 'Lids',
      participants: [WHATSAPP_CONTACT],
    });
    const lid = '208512345678901@lid';
    await client.sandbox.chatEvent(group.chatId, {
      action: 'participant.added',
      actor: WHATSAPP_CONTACT,
      participant: lid,
    });
    await stream.waitFor(ofType('chat.participant.added'));
    expect(JSON.stringify((await client.chats.get(group.chatId)).participants)).toContain(lid);

    const resolved = await client.sandbox.whatsappResolveLid(OWNED, {
      lid,
      phone: '+14155550164',
    });
    expect(resolved).toEqual({
      lid,
      jid: '14155550164@s.whatsapp.net',
      conversationIds: [group.conversationId],
    });
    const { participants } = await client.chats.get(group.chatId);
    expect(participants).toContainEqual({
      handle: '14155550164@s.whatsapp.net',
      isPhoneResolved: true,
      admin: null,
    });
  });
});

describe('client.sandbox.setInstanceHealth', () => {
  it('changes the health the number shows to its customer alone, then restores it', async () => {
    const healthOf = async () =>
      (await client.numbers.list()).find((n) => n.phoneNumber === OWNED)?.healthStatus;
    const before = await healthOf();
    const degraded = await client.sandbox.setInstanceHealth(OWNED, {
      status: 'degraded',
      warnings: ['private_api_disabled'],
    });
    expect(degraded).toMatchObject({ status: 'degraded', warnings: ['Private API disabled'] });
    expect(await healthOf()).toBe('degraded');
    // The server's health is the instance's, not what one customer simulated.
    expect(JSON.stringify(await client.health())).not.toContain('Private API disabled');

    await client.sandbox.setInstanceHealth(OWNED.slice(1), { status: 'healthy' });
    expect(await healthOf()).toBe(before);
  });
});
