import { MemoryProviderStateStore, systemTimerClock } from '@switchboard/provider-kit';
import { ProviderEventRecorder, providerOperations, startWithRecorder } from '@switchboard/testing';
import { proto } from 'baileys';
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

  it("reports `sent` once Baileys relayed the message, and WhatsApp's refusal as failed with its code, not as a timeout", async () => {
    network
      .addUser({ phoneNumber: '+14155550126', lid: '90000000000126@lid', behaviour: 'fail' })
      .addUser({
        phoneNumber: '+14155550127',
        lid: '90000000000127@lid',
        behaviour: 'fail',
        failCode: '479',
      });
    const restricted = await send({ to: { type: 'address', address: '+14155550126' } });
    const stale = await send({ to: { type: 'address', address: '+14155550127' } });
    const failure = async (externalId: string) => {
      await until(() =>
        recorder
          .ofKind('message.status')
          .some((e) => e.externalId === externalId && e.status === 'failed'),
      );
      const statuses = recorder.ofKind('message.status').filter((e) => e.externalId === externalId);
      expect(statuses.map((e) => e.status)).toEqual(['sent', 'failed']);
      const failed = statuses[1];
      return failed?.status === 'failed' ? failed.error : undefined;
    };
    expect(await failure(restricted.externalId)).toMatchObject({
      code: 'NO_CHANNEL_AVAILABLE',
      providerCode: '463',
    });
    const staleError = await failure(stale.externalId);
    expect(staleError).toMatchObject({ code: 'IMESSAGE_SEND_FAILED', providerCode: '479' });
    expect(staleError?.message).toContain('479');
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
        // Audio without isAudioMessage is a generic file (spec rule 7).
        {
          source: { kind: 'bytes', data: new Uint8Array([3]) },
          mimeType: 'audio/mpeg',
          filename: 'song.mp3',
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
    expect(contents[3]).toMatchObject({ mimetype: 'audio/mpeg', fileName: 'song.mp3' });
    expect(contents[3]).toHaveProperty('document');
    expect(contents[3]).not.toHaveProperty('audio');
    expect(result.parts?.map((part) => part.kind)).toEqual([
      'attachment',
      'text',
      'attachment',
      'attachment',
    ]);
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

  it("hands Baileys the group's members (cachedGroupMetadata) instead of a query before every send", async () => {
    const chat = await provider.createGroup({
      channel: 'whatsapp',
      from: OWNED,
      participants: [CONTACT],
      name: 'Team',
    });
    await send({ to: { type: 'chat', chatId: chat.chatId } });
    await send({ to: { type: 'chat', chatId: chat.chatId } });
    expect(network.socketOf(OWNED).sent.map((entry) => entry.metadataFrom)).toEqual([
      'cache',
      'cache',
    ]);
    expect(network.groupQueries).toEqual([]);
    // A member change: the next send asks WhatsApp once, then the cache answers again.
    await provider.addParticipant({
      channel: 'whatsapp',
      from: OWNED,
      chatId: chat.chatId,
      participant: MEMBER,
    });
    await send({ to: { type: 'chat', chatId: chat.chatId } });
    await send({ to: { type: 'chat', chatId: chat.chatId } });
    expect(network.groupQueries).toEqual([chat.chatId]);
    expect(network.socketOf(OWNED).sent.map((entry) => entry.metadataFrom)).toEqual([
      'cache',
      'cache',
      'cache',
      'cache',
    ]);
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
    // Refused by WhatsApp (403: the person's settings), not a malformed recipient.
    expect(refused).toBe('INVALID_STATUS');
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

  it("maps WhatsApp's refusals to the spec's codes, not retried, with WhatsApp's code kept; only timeouts and lost connections are retryable", async () => {
    const outcome = (call: Promise<unknown>) =>
      call.then(
        () => 'ok',
        (error: {
          code?: string;
          retryable?: boolean;
          providerCode?: string;
          message: string;
        }) => ({
          code: error.code,
          retryable: error.retryable,
          providerCode: error.providerCode,
          message: error.message,
        }),
      );
    const create = () =>
      provider.createGroup({
        channel: 'whatsapp',
        from: OWNED,
        participants: [CONTACT],
        name: 'T',
      });
    network.refuseNext('groupCreate', 403, 'forbidden');
    expect(await outcome(create())).toEqual({
      code: 'INVALID_STATUS',
      retryable: false,
      providerCode: '403',
      message: 'WhatsApp refused to create the group (403: forbidden)',
    });
    network.refuseNext('groupCreate', 'timeout');
    expect(await outcome(create())).toMatchObject({ code: 'PROVIDER_TIMEOUT', retryable: true });
    network.refuseNext('sendMessage', 403, 'forbidden');
    expect(await outcome(send())).toMatchObject({
      code: 'IMESSAGE_SEND_FAILED',
      retryable: false,
      providerCode: '403',
    });
    network.refuseNext('sendMessage', 'closed');
    expect(await outcome(send())).toMatchObject({
      code: 'PROVIDER_TIMEOUT',
      retryable: true,
      providerCode: '428',
    });
    // A group WhatsApp does not know: its 404 rides in the Boom's data, not its statusCode.
    expect(
      await provider.getChat({ channel: 'whatsapp', from: OWNED, chatId: '1203639999@g.us' }),
    ).toBeNull();
    const chat = await create();
    network.refuseNext('groupUpdateSubject', 401, 'not-authorized');
    expect(
      await outcome(
        provider.renameGroup({ channel: 'whatsapp', from: OWNED, chatId: chat.chatId, name: 'X' }),
      ),
    ).toMatchObject({ code: 'INVALID_STATUS', retryable: false, providerCode: '401' });
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

  it("reacts in a group with the original key's participant, an @lid included", async () => {
    const { chatId } = await provider.createGroup({
      channel: 'whatsapp',
      from: OWNED,
      participants: [CONTACT],
      name: 'Votes',
    });
    const inbound = await network.receive(OWNED, {
      from: CONTACT,
      groupId: chatId,
      text: 'Vote?',
      lid: 'with-alt',
    });
    await until(() => recorder.ofKind('message.inbound').length === 1);
    // The gateway names the sender by the phone number beside the @lid.
    expect(recorder.ofKind('message.inbound')[0]?.from).toBe(CONTACT);
    await provider.react({
      channel: 'whatsapp',
      from: OWNED,
      message: {
        externalId: inbound.key.id ?? '',
        conversation: { type: 'chat', chatId },
        fromMe: false,
        author: CONTACT,
      },
      reaction: { type: 'like' },
      remove: false,
    });
    const [reaction] = network.socketOf(OWNED).sent;
    expect(reaction?.message.message?.reactionMessage?.key).toMatchObject({
      remoteJid: chatId,
      id: inbound.key.id,
      fromMe: false,
      participant: CONTACT_LID,
    });
  });

  it('subscribes to the chat and maps typing to composing and paused, and refuses read state, edits and unsends', async () => {
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
    // Shown to the contact: each chat state came after a subscription to the chat.
    expect(network.presences).toEqual([
      ['14155550123@s.whatsapp.net', 'composing'],
      ['14155550123@s.whatsapp.net', 'paused'],
    ]);
    expect(network.unseenPresences).toEqual([]);
    expect(network.presenceSubscriptions[0]).toBe('14155550123@s.whatsapp.net');
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    expect(
      await code(
        providerOperations(provider).markRead({
          channel: 'whatsapp',
          from: OWNED,
          chatId: 'x@s.whatsapp.net',
        }),
      ),
    ).toBe('CHANNEL_NOT_SUPPORTED');
    expect(
      await code(
        providerOperations(provider).markUnread({
          channel: 'whatsapp',
          from: OWNED,
          chatId: 'x@s.whatsapp.net',
        }),
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

  it('announces kinds the gateway does not model as a message with a note of what it was, never dropping them', async () => {
    const contents = [
      {
        locationMessage: {
          degreesLatitude: 52.52,
          degreesLongitude: 13.405,
          name: 'Café',
          address: 'Unter den Linden 1',
        },
      },
      { liveLocationMessage: { degreesLatitude: 1.5, degreesLongitude: -2.25 } },
      {
        contactMessage: {
          displayName: 'Ana',
          vcard:
            'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL;type=CELL;waid=14155550124:+1 415 555 0124\nEND:VCARD',
        },
      },
      {
        pollCreationMessageV3: {
          name: 'Lunch?',
          options: [{ optionName: 'Pizza' }, { optionName: 'Sushi' }],
          selectableOptionsCount: 1,
        },
      },
      { eventMessage: { name: 'Standup', startTime: 1_800_000_000 } },
      { groupInviteMessage: { groupJid: '1203630009@g.us', groupName: 'Club' } },
      { ptvMessage: { mimetype: 'video/mp4', fileLength: 3, seconds: 2 } },
    ];
    for (const content of contents) {
      await network.receive(OWNED, { from: CONTACT, content: proto.Message.fromObject(content) });
    }
    await until(() => recorder.ofKind('message.inbound').length === contents.length);
    const inbound = recorder.ofKind('message.inbound');
    expect(inbound.map((e) => e.text)).toEqual([
      '[location] Café, Unter den Linden 1 52.52,13.405 https://maps.google.com/?q=52.52,13.405',
      '[live location] 1.5,-2.25 https://maps.google.com/?q=1.5,-2.25',
      '[contact] Ana +14155550124',
      '[poll] Lunch?: Pizza / Sushi',
      '[event] Standup (2027-01-15T08:00:00.000Z)',
      '[group invite]',
      '',
    ]);
    // A video note is a video.
    expect(inbound[6]?.attachments[0]?.mimeType).toBe('video/mp4');
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

  it("names an @lid sender by the phone number beside it, by Baileys' stored mapping, or by the @lid while none is known", async () => {
    await network.receive(OWNED, { from: CONTACT, text: 'without alt', lid: 'without-alt' });
    // The alternate JID beside this one is stored by Baileys, without an event.
    await network.receive(OWNED, { from: CONTACT, text: 'with alt', lid: 'with-alt' });
    await network.receive(OWNED, { from: CONTACT, text: 'without alt again', lid: 'without-alt' });
    await until(() => recorder.ofKind('message.inbound').length === 3);
    await network.resolveLid(OWNED, CONTACT);
    await until(() => recorder.ofKind('whatsapp.lid_resolved').length === 1);
    expect(recorder.ofKind('message.inbound').map((e) => e.from)).toEqual([
      CONTACT_LID,
      CONTACT,
      CONTACT,
    ]);
    expect(recorder.ofKind('whatsapp.lid_resolved')[0]).toMatchObject({
      phoneNumber: OWNED,
      lid: CONTACT_LID,
      jid: '14155550123@s.whatsapp.net',
    });
  });

  it('announces what WhatsApp held while offline (append) as news, imports no history, and marks messages typed on the phone', async () => {
    await network.history(OWNED, [{ from: CONTACT, text: 'old one' }]);
    await network.receiveWhileOffline(OWNED, { from: CONTACT, text: 'sent while you were away' });
    await network.receive(OWNED, { from: CONTACT, text: 'typed on the phone', fromMe: true });
    await until(() => recorder.ofKind('message.inbound').length === 2);
    const [held, mine] = recorder.ofKind('message.inbound');
    expect(held).toMatchObject({ text: 'sent while you were away', from: CONTACT, to: OWNED });
    expect(held).not.toHaveProperty('history');
    expect(mine).toMatchObject({
      text: 'typed on the phone',
      fromMe: true,
      from: OWNED,
      to: CONTACT,
    });
  });

  it('reports group member changes and renames by their author, and takes a metadata refetch for no rename', async () => {
    const chat = await provider.createGroup({
      channel: 'whatsapp',
      from: OWNED,
      participants: [CONTACT],
      name: 'Team',
    });
    await network.groupParticipants(OWNED, '1203630001@g.us', CONTACT, 'add', [MEMBER]);
    await network.groupParticipants(OWNED, '1203630001@g.us', CONTACT, 'promote', [MEMBER], true);
    await until(() => recorder.ofKind('chat.event').length === 2);
    network.learnLid(MEMBER);
    await network.groupParticipants(OWNED, '1203630001@g.us', CONTACT, 'demote', [MEMBER], true);
    await network.refreshGroups(OWNED);
    await network.groupSubject(OWNED, '1203630001@g.us', CONTACT, 'Renamed');
    await network.refreshGroups(OWNED);
    await until(() => recorder.ofKind('chat.event').length >= 4);
    // Let a refetch's would-be renames arrive, if the adapter took them for renames.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recorder.ofKind('chat.event').some((e) => e.chatId === chat.chatId)).toBe(false);
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
      // Named by `@lid` alone, with no mapping known: the handle (the actor by its authorPn).
      ['participant.role_changed', CONTACT, '90000000000124@lid'],
      // Once Baileys stored the mapping, by the phone number.
      ['participant.role_changed', CONTACT, MEMBER],
      ['title.changed', CONTACT, 'Renamed'],
    ]);
  });

  it("reports a contact's typing and its pause, which Baileys reports as `available` like coming online", async () => {
    await network.presence(OWNED, CONTACT, 'online');
    await network.presence(OWNED, CONTACT, 'composing');
    await network.presence(OWNED, CONTACT, 'paused');
    await network.presence(OWNED, CONTACT, 'online');
    await network.presence(OWNED, CONTACT, 'recording');
    await network.presence(OWNED, CONTACT, 'offline');
    await until(() => recorder.ofKind('typing').length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(recorder.ofKind('typing').map((e) => [e.from, e.status])).toEqual([
      [CONTACT, 'start'],
      [CONTACT, 'stop'],
      [CONTACT, 'start'],
      [CONTACT, 'stop'],
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
    // An @lid is never queried as a phone number (Baileys' onWhatsApp skips it).
    expect(await provider.whatsappSessions.isOnWhatsApp(OWNED, CONTACT_LID)).toEqual({
      address: CONTACT_LID,
      exists: true,
      jid: CONTACT_LID,
    });
    network.learnLid(CONTACT);
    expect(await provider.whatsappSessions.isOnWhatsApp(OWNED, CONTACT_LID)).toEqual({
      address: CONTACT_LID,
      exists: true,
      jid: '14155550123@s.whatsapp.net',
    });
  });
});
