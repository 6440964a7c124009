import { MemoryProviderStateStore, systemTimerClock } from '@switchboard/provider-kit';
import { ProviderEventRecorder, startWithRecorder } from '@switchboard/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeWhatsAppNetwork } from './fake-baileys-socket';
import { PairedBaileysProvider, until } from './paired-provider';

const OWNED = '+14155550100';
const CONTACT = '+14155550123';
const MEMBER = '+14155550124';
const CONTACT_LID = '90000000000123@lid';

let network: FakeWhatsAppNetwork;
let provider: PairedBaileysProvider;
let recorder: ProviderEventRecorder;
const send = (overrides: Record<string, unknown> = {}) =>
  provider.send({
    channel: 'whatsapp',
    from: OWNED,
    to: { type: 'address', address: CONTACT },
    messageId: 'msg_1',
    attempt: 0,
    attemptId: `a-${Math.random()}`,
    text: 'Hello',
    ...overrides,
  });

beforeEach(async () => {
  network = new FakeWhatsAppNetwork(systemTimerClock, { receiptDelayMs: 2 })
    .addUser({ phoneNumber: OWNED, lid: '90000000000100@lid' })
    .addUser({ phoneNumber: CONTACT, lid: CONTACT_LID })
    .addUser({ phoneNumber: MEMBER, lid: '90000000000124@lid' });
  provider = new PairedBaileysProvider(network, OWNED);
  ({ recorder } = await startWithRecorder(
    provider,
    new ProviderEventRecorder(),
    new MemoryProviderStateStore(),
  ));
});

afterEach(async () => {
  await provider.stop();
});

describe('Baileys sends', () => {
  it("names the attempt on every status of a send, WhatsApp's receipts included", async () => {
    const attemptId = 'msg_1:0:whatsapp';
    const { externalId } = await send({ attemptId });
    await until(() =>
      recorder
        .ofKind('message.status')
        .some((e) => e.externalId === externalId && e.status === 'read'),
    );
    const statuses = recorder.ofKind('message.status').filter((e) => e.externalId === externalId);
    // The send's own `sent` (the server ack tells the same, under the same upstream id), then the
    // delivery and the read receipt.
    expect(statuses.map((e) => e.status)).toEqual(['sent', 'delivered', 'read']);
    expect(statuses.every((e) => e.attemptId === attemptId)).toBe(true);
  });

  it('sends text with mentions and a quoted reply carrying the quoted content', async () => {
    const inbound = await network.receive(OWNED, { from: CONTACT, text: 'Dinner at 8?' });
    await until(() => recorder.ofKind('message.inbound').length === 1);
    await send({
      text: 'Yes @Ana',
      mentions: [{ address: MEMBER, start: 4, length: 4 }],
      replyTo: {
        externalId: inbound.key.id,
        conversation: { type: 'address', address: CONTACT },
        fromMe: false,
      },
    });
    const [sent] = network.socketOf(OWNED).sent;
    expect(sent?.jid).toBe('14155550123@s.whatsapp.net');
    expect(sent?.content).toEqual({ text: 'Yes @Ana', mentions: ['14155550124@s.whatsapp.net'] });
    expect(sent?.quoted?.message).toEqual({ conversation: 'Dinner at 8?' });
  });

  it('sends the text as the caption of the first image, further files and a voice note on their own', async () => {
    const result = await send({
      text: 'The plan',
      attachments: [
        {
          source: { kind: 'bytes', data: new Uint8Array([1]) },
          mimeType: 'audio/ogg',
          isAudioMessage: true,
        },
        { source: { kind: 'bytes', data: new Uint8Array([2]) }, mimeType: 'image/png' },
        {
          source: { kind: 'url', url: 'https://cdn.example.com/a.pdf' },
          mimeType: 'application/pdf',
          filename: 'a.pdf',
        },
      ],
    });
    const contents = network
      .socketOf(OWNED)
      .sent.map((entry) => entry.content as Record<string, unknown>);
    expect(contents[0]).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' });
    expect(contents[1]).toMatchObject({ caption: 'The plan', mimetype: 'image/png' });
    expect(contents[2]).toMatchObject({
      document: { url: 'https://cdn.example.com/a.pdf' },
      fileName: 'a.pdf',
    });
    expect(result.parts?.map((part) => part.kind)).toEqual(['attachment', 'text', 'attachment']);
    expect(result.externalId).toBe(result.parts?.[1]?.externalId);
  });

  it('reports group receipts per member', async () => {
    const chat = await provider.createGroup({
      channel: 'whatsapp',
      from: OWNED,
      participants: [CONTACT, MEMBER],
      name: 'Team',
    });
    expect(chat.participants.map((p) => p.handle).sort()).toEqual([
      '14155550123@s.whatsapp.net',
      '14155550124@s.whatsapp.net',
    ]);
    const { externalId } = await send({ to: { type: 'chat', chatId: chat.chatId } });
    await until(
      () =>
        recorder
          .ofKind('message.status')
          .filter((e) => e.externalId === externalId && e.status === 'read').length === 2,
    );
    const recipients = recorder
      .ofKind('message.status')
      .filter((e) => e.externalId === externalId && e.status === 'read')
      .map((e) => e.recipient);
    expect(recipients.sort()).toEqual([CONTACT, MEMBER]);
  });

  it('adds and removes group members, and names the member the fake refuses', async () => {
    const chat = await provider.createGroup({
      channel: 'whatsapp',
      from: OWNED,
      participants: [CONTACT],
      name: 'Team',
    });
    expect(
      await provider.addParticipant({
        channel: 'whatsapp',
        from: OWNED,
        chatId: chat.chatId,
        participant: MEMBER,
      }),
    ).toEqual({
      handle: '14155550124@s.whatsapp.net',
      isPhoneResolved: true,
      admin: null,
    });
    const refused = await provider
      .addParticipant({
        channel: 'whatsapp',
        from: OWNED,
        chatId: chat.chatId,
        participant: '+19995550000',
      })
      .catch((error: { code?: string }) => error.code);
    expect(refused).toBe('INVALID_RECIPIENT');
    await provider.removeParticipant({
      channel: 'whatsapp',
      from: OWNED,
      chatId: chat.chatId,
      participant: CONTACT,
    });
    const known = await provider.getChat({ channel: 'whatsapp', from: OWNED, chatId: chat.chatId });
    expect(known?.participants.map((p) => p.handle)).toEqual(['14155550124@s.whatsapp.net']);
    await provider.leaveGroup({ channel: 'whatsapp', from: OWNED, chatId: chat.chatId });
    expect(
      await provider.getChat({ channel: 'whatsapp', from: OWNED, chatId: '1@g.us' }),
    ).toBeNull();
  });

  it('reacts with the spec emoji for a tapback and takes it back with an empty reaction', async () => {
    const message = {
      externalId: '3EB0X',
      conversation: { type: 'address' as const, address: CONTACT },
      fromMe: false,
    };
    await provider.react({
      channel: 'whatsapp',
      from: OWNED,
      message,
      reaction: { type: 'love' },
      remove: false,
    });
    await provider.react({
      channel: 'whatsapp',
      from: OWNED,
      message,
      reaction: { type: 'love' },
      remove: true,
    });
    const reacts = network
      .socketOf(OWNED)
      .sent.map((entry) => (entry.content as { react: { text: string } }).react.text);
    expect(reacts).toEqual(['❤️', '']);
  });

  it('maps typing to composing and paused, and refuses read state, edits and unsends', async () => {
    await provider.typing({
      channel: 'whatsapp',
      from: OWNED,
      to: { type: 'address', address: CONTACT },
      status: 'start',
    });
    await provider.typing({
      channel: 'whatsapp',
      from: OWNED,
      to: { type: 'address', address: CONTACT },
      status: 'stop',
    });
    expect(network.presences).toEqual([
      ['14155550123@s.whatsapp.net', 'composing'],
      ['14155550123@s.whatsapp.net', 'paused'],
    ]);
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    expect(
      await code(
        provider.markRead({ channel: 'whatsapp', from: OWNED, chatId: 'x@s.whatsapp.net' }),
      ),
    ).toBe('CHANNEL_NOT_SUPPORTED');
    expect(
      await code(
        provider.markUnread({ channel: 'whatsapp', from: OWNED, chatId: 'x@s.whatsapp.net' }),
      ),
    ).toBe('CHANNEL_NOT_SUPPORTED');
  });
});

describe('Baileys inbound', () => {
  it('reports text, quotes, push names and media bytes', async () => {
    await network.receive(OWNED, {
      from: CONTACT,
      text: 'See this',
      quotedId: '3EB0Q',
      pushName: 'Ana',
    });
    await network.receive(OWNED, {
      from: CONTACT,
      text: 'Photo',
      media: { kind: 'image', mimeType: 'image/png', data: new Uint8Array([9, 9]) },
    });
    await until(() => recorder.ofKind('message.inbound').length === 2);
    const [quote, photo] = recorder.ofKind('message.inbound');
    expect(quote).toMatchObject({
      from: CONTACT,
      to: OWNED,
      text: 'See this',
      replyToExternalId: '3EB0Q',
      senderName: 'Ana',
      isGroup: false,
    });
    expect(photo?.attachments[0]).toMatchObject({
      mimeType: 'image/png',
      totalBytes: 2,
      content: { kind: 'bytes', data: new Uint8Array([9, 9]) },
    });
  });

  it('reports reactions (an empty one as removed), edits and revokes', async () => {
    const target = { remoteJid: '14155550123@s.whatsapp.net', id: '3EB0T', fromMe: true };
    await network.react(OWNED, CONTACT, target, '😂');
    await network.react(OWNED, CONTACT, target, '');
    await network.edit(OWNED, CONTACT, '3EB0E', 'Fixed typo');
    await network.revoke(OWNED, CONTACT, '3EB0R');
    await until(() => recorder.ofKind('message.changed').length === 2);
    expect(
      recorder.ofKind('message.reaction').map((e) => [e.targetExternalId, e.reaction, e.removed]),
    ).toEqual([
      ['3EB0T', { type: 'emoji', emoji: '😂' }, false],
      ['3EB0T', { type: 'emoji', emoji: '' }, true],
    ]);
    expect(recorder.ofKind('message.changed').map((e) => [e.externalId, e.change])).toEqual([
      ['3EB0E', { type: 'edited', text: 'Fixed typo' }],
      ['3EB0R', { type: 'unsent' }],
    ]);
  });

  it('names an @lid sender by the phone number beside it, or by the @lid until a mapping resolves it', async () => {
    await network.receive(OWNED, { from: CONTACT, text: 'with alt', lid: 'with-alt' });
    await network.receive(OWNED, { from: CONTACT, text: 'without alt', lid: 'without-alt' });
    await network.resolveLid(OWNED, CONTACT);
    await until(() => recorder.ofKind('whatsapp.lid_resolved').length === 1);
    expect(recorder.ofKind('message.inbound').map((e) => e.from)).toEqual([CONTACT, CONTACT_LID]);
    expect(recorder.ofKind('whatsapp.lid_resolved')[0]).toMatchObject({
      phoneNumber: OWNED,
      lid: CONTACT_LID,
      jid: '14155550123@s.whatsapp.net',
    });
  });

  it('stores history (append) without emitting it as new, and marks messages typed on the phone', async () => {
    await network.history(OWNED, [{ from: CONTACT, text: 'old one' }]);
    await network.receive(OWNED, { from: CONTACT, text: 'typed on the phone', fromMe: true });
    await until(() => recorder.ofKind('message.inbound').length === 2);
    const [old, mine] = recorder.ofKind('message.inbound');
    expect(old).toMatchObject({ text: 'old one', history: true });
    expect(mine).toMatchObject({
      text: 'typed on the phone',
      fromMe: true,
      from: OWNED,
      to: CONTACT,
    });
  });

  it('reports group member changes and renames', async () => {
    await network.groupParticipants(OWNED, '1203630001@g.us', CONTACT, 'add', [MEMBER]);
    await network.groupParticipants(OWNED, '1203630001@g.us', CONTACT, 'promote', [MEMBER]);
    await network.groupSubject(OWNED, '1203630001@g.us', CONTACT, 'Renamed');
    await until(() => recorder.ofKind('chat.event').length === 3);
    expect(
      recorder
        .ofKind('chat.event')
        .map((e) => [
          e.action,
          e.actor,
          'participant' in e ? e.participant : e.action === 'title.changed' ? e.title : '',
        ]),
    ).toEqual([
      ['participant.added', CONTACT, MEMBER],
      ['participant.role_changed', CONTACT, MEMBER],
      ['title.changed', CONTACT, 'Renamed'],
    ]);
  });

  it('answers isOnWhatsApp through the connected session', async () => {
    expect(await provider.whatsappSessions.isOnWhatsApp(OWNED, CONTACT)).toEqual({
      address: CONTACT,
      exists: true,
      jid: '14155550123@s.whatsapp.net',
    });
    expect(await provider.whatsappSessions.isOnWhatsApp(OWNED, '+19995550000')).toEqual({
      address: '+19995550000',
      exists: false,
    });
  });
});
