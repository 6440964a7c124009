import type {
  Message,
  MessageList,
  SandboxInboundMessageResult,
  SendMessageResult,
} from '@switchboard/contract';
import { startLoopbackReceiver } from '@switchboard/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  buildChatApp,
  type ChatTestApp,
  chatUrl,
  createGroup,
  defined,
  expectFailure,
  IMESSAGE_CONTACT,
  OWN_EMAIL,
  OWN_NUMBER,
  WHATSAPP_CONTACT,
  WHATSAPP_GROUP,
} from '../chats/chat-test-app';
import { observe, ofType } from './observers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

/** The path and query of a download URL, to request it from the app. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Sends a message from the customer and waits until the simulator delivered it. */
async function sendDelivered(t: ChatTestApp, body: Record<string, unknown>): Promise<Message> {
  const sent = await t.acme.ok<SendMessageResult>('POST', '/v1/messages', body, 202);
  return waitForStatus(t, sent.id, ['delivered', 'read']);
}

async function waitForStatus(t: ChatTestApp, id: string, statuses: string[]): Promise<Message> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const message = await t.acme.ok<Message>('GET', `/v1/messages/${id}`);
    if (statuses.includes(message.status)) return message;
    if (Date.now() > deadline) throw new Error(`${id} stayed ${message.status}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('inbound messages from the sandbox', () => {
  it('reach the webhook and the stream with stored attachments behind signed URLs', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    const media = await startLoopbackReceiver((request, response) => {
      if (request.path === '/photo') {
        response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      } else {
        response.writeHead(404).end();
      }
    });
    onTestFinished(() => media.close());

    const result = await t.acme.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'imessage',
        from: IMESSAGE_CONTACT,
        to: OWN_NUMBER,
        text: 'Photos from Saturday',
        attachments: [
          { data: Buffer.from('hello, world').toString('base64'), filename: 'notes.txt' },
          { url: `${media.origin}/photo`, filename: 'beach photo “1”.png' },
          { url: `${media.origin}/missing`, mimeType: 'image/jpeg', filename: 'gone.jpg' },
        ],
      },
    );
    expect(result).toMatchObject({ suppressed: false, otp: null, conversationId: null });

    const event = await observed.both(
      ofType('message.inbound', (e) => e.data.messageId === result.messageId),
    );
    expect(event.data).toEqual({
      messageId: result.messageId,
      externalMessageId: result.externalId,
      from: IMESSAGE_CONTACT,
      to: OWN_NUMBER,
      text: 'Photos from Saturday',
      channel: 'imessage',
      attachments: [
        {
          guid: expect.stringMatching(/^at_0_/),
          mimeType: 'text/plain',
          filename: 'notes.txt',
          totalBytes: 12,
          downloadUrl: expect.stringMatching(
            /\/v1\/attachments\/att_.+\?expires=\d+&signature=[0-9a-f]{64}$/,
          ),
        },
        {
          guid: expect.stringMatching(/^at_0_/),
          mimeType: 'image/png',
          filename: 'beach photo “1”.png',
          totalBytes: PNG.length,
          downloadUrl: expect.any(String),
        },
        {
          guid: expect.stringMatching(/^at_0_/),
          mimeType: 'image/jpeg',
          filename: 'gone.jpg',
          totalBytes: 0,
          note: expect.stringContaining('HTTP 404'),
        },
      ],
    });

    const [text, photo] = event.data.attachments;
    const textDownload = await t.app.inject({ url: pathOf(defined(text?.downloadUrl)) });
    expect(textDownload.statusCode).toBe(200);
    expect(textDownload.headers['content-type']).toBe('text/plain');
    expect(textDownload.headers['content-disposition']).toBe(
      'attachment; filename="notes.txt"; filename*=UTF-8\'\'notes.txt',
    );
    expect(textDownload.body).toBe('hello, world');
    const photoDownload = await t.app.inject({ url: pathOf(defined(photo?.downloadUrl)) });
    expect(photoDownload.statusCode).toBe(200);
    expect(photoDownload.headers['content-type']).toBe('image/png');
    expect(photoDownload.rawPayload.equals(PNG)).toBe(true);
    expect(photoDownload.headers['content-disposition']).toContain(
      "filename*=UTF-8''beach%20photo",
    );

    // A tampered signature, another attachment's signature, an expired URL: all 403.
    const url = new URL(defined(text?.downloadUrl));
    const signature = url.searchParams.get('signature') ?? '';
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    expectFailure(
      await t.app.inject({ url: pathOf(url.href.replace(signature, flipped)) }),
      403,
      'FORBIDDEN',
    );
    const photoUrl = new URL(defined(photo?.downloadUrl));
    expectFailure(
      await t.app.inject({
        url: `${photoUrl.pathname}?expires=${url.searchParams.get('expires')}&signature=${signature}`,
      }),
      403,
      'FORBIDDEN',
    );
    const longer = Number(url.searchParams.get('expires')) + 60;
    expectFailure(
      await t.app.inject({ url: `${url.pathname}?expires=${longer}&signature=${signature}` }),
      403,
      'FORBIDDEN',
    );
    expectFailure(
      await t.app.inject({ url: `${url.pathname}?expires=${url.searchParams.get('expires')}` }),
      400,
      'VALIDATION_ERROR',
    );
    t.clock.advance(60 * 60 * 1000 + 1000);
    expectFailure(await t.app.inject({ url: pathOf(url.href) }), 403, 'FORBIDDEN');

    // Stored as a Message, listed with the outbound ones.
    const message = await t.acme.ok<Message>('GET', `/v1/messages/${result.messageId}`);
    expect(message).toMatchObject({
      id: result.messageId,
      direction: 'inbound',
      status: 'delivered',
      to: OWN_NUMBER,
      from: IMESSAGE_CONTACT,
      channel: 'imessage',
      content: { text: 'Photos from Saturday' },
      externalId: result.externalId,
    });
    expect(message.attachments.map((a) => a.filename)).toEqual([
      'notes.txt',
      'beach photo “1”.png',
      'gone.jpg',
    ]);
    const list = await t.acme.ok<MessageList>('GET', '/v1/messages');
    expect(list.messages.map((m) => m.id)).toContain(result.messageId);
  });

  it('arrive on whatsapp and sms, in groups with the conversation fragment, and to an e-mail address', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    const group = await createGroup(t.acme, WHATSAPP_GROUP);
    const inGroup = await t.acme.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'whatsapp',
        from: '+14155550165',
        to: OWN_NUMBER,
        text: 'Who is new here?',
        chatId: group.chatId,
      },
    );
    expect(inGroup.conversationId).toBe(group.conversationId);
    const groupEvent = await observed.both(
      ofType('message.inbound', (e) => e.data.messageId === inGroup.messageId),
    );
    expect(groupEvent.data).toMatchObject({
      channel: 'whatsapp',
      from: '+14155550165',
      conversation: {
        id: group.conversationId,
        chatId: group.chatId,
        channel: 'whatsapp',
        isGroup: true,
        name: 'Ops',
        participants: [
          { handle: '14155550160@s.whatsapp.net', isPhoneResolved: true, admin: null },
          { handle: '14155550165@s.whatsapp.net', isPhoneResolved: true, admin: null },
        ],
      },
    });

    const sms = await t.acme.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'sms',
        from: '+14155550110',
        to: OWN_NUMBER,
        text: 'STOP',
      },
    );
    const smsEvent = await observed.both(
      ofType('message.inbound', (e) => e.data.messageId === sms.messageId),
    );
    expect(smsEvent.data).toMatchObject({ channel: 'sms', text: 'STOP', attachments: [] });
    expect(smsEvent.data).not.toHaveProperty('conversation');

    const toEmail = await t.acme.ok<SandboxInboundMessageResult>(
      'POST',
      '/v1/sandbox/inbound-messages',
      {
        channel: 'imessage',
        from: 'ada@example.com',
        to: OWN_EMAIL,
        text: 'hi from my Apple ID',
      },
    );
    const emailEvent = await observed.both(
      ofType('message.inbound', (e) => e.data.messageId === toEmail.messageId),
    );
    expect(emailEvent.data).toMatchObject({ from: 'ada@example.com', to: OWN_EMAIL });
    expectFailure(
      await t.acme.request('POST', '/v1/sandbox/inbound-messages', {
        channel: 'sms',
        from: '+14155550110',
        to: OWN_EMAIL,
        text: 'x',
      }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('contact activity from the sandbox', () => {
  it('reactions name their target, or null when unknown; removals and emoji too', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    const sent = await sendDelivered(t, {
      to: IMESSAGE_CONTACT,
      content: { text: 'Dinner at 8?' },
    });
    const react = (body: Record<string, unknown>) =>
      t.acme.ok<{ externalId: string; targetMessageId: string | null }>(
        'POST',
        '/v1/sandbox/reactions',
        { channel: 'imessage', from: IMESSAGE_CONTACT, to: OWN_NUMBER, ...body },
      );

    const love = await react({ messageId: sent.id, type: 'love' });
    expect(love.targetMessageId).toBe(sent.id);
    const loveEvent = await observed.both(
      ofType('message.reaction', (e) => e.data.reaction.type === 'love'),
    );
    expect(loveEvent.data).toEqual({
      reaction: {
        type: 'love',
        targetMessageId: sent.id,
        targetExternalId: sent.externalId,
        content: 'Loved “Dinner at 8?”',
      },
      from: IMESSAGE_CONTACT,
      to: OWN_NUMBER,
      channel: 'imessage',
    });

    await react({ messageId: sent.id, type: 'emoji', emoji: '🎉' });
    const emoji = await observed.both(
      ofType('message.reaction', (e) => e.data.reaction.type === 'emoji'),
    );
    expect(emoji.data.reaction).toMatchObject({ emoji: '🎉', content: null });

    await react({ messageId: sent.id, type: 'love', remove: true });
    const removed = await observed.both(
      ofType('message.reaction', (e) => e.data.reaction.type === 'remove'),
    );
    expect(removed.data.reaction).toMatchObject({
      targetMessageId: sent.id,
      content: 'Removed a reaction from “Dinner at 8?”',
    });

    const unknown = await react({
      targetExternalId: 'E0000000-0000-0000-0000-000000000000',
      type: 'like',
    });
    expect(unknown.targetMessageId).toBeNull();
    const unknownEvent = await observed.both(
      ofType('message.reaction', (e) => e.data.reaction.type === 'like'),
    );
    expect(unknownEvent.data.reaction).toMatchObject({
      targetMessageId: null,
      targetExternalId: 'E0000000-0000-0000-0000-000000000000',
      content: 'Liked a message',
    });

    // On sms a reaction is the text an iPhone sends.
    const smsSent = await sendDelivered(t, {
      to: '+14155550112',
      content: { text: 'Table for two' },
    });
    const smsReaction = await t.acme.ok<{ messageId: string }>('POST', '/v1/sandbox/reactions', {
      channel: 'sms',
      from: '+14155550112',
      to: OWN_NUMBER,
      messageId: smsSent.id,
      type: 'laugh',
    });
    const asText = await observed.both(
      ofType('message.inbound', (e) => e.data.messageId === smsReaction.messageId),
    );
    expect(asText.data.text).toBe('Laughed at “Table for two”');
  });

  it('reactions of contacts are kept on the message, one per contact, beside the customer’s own', async () => {
    const t = await buildChatApp();
    // No API resource shows reactions yet: the stored state is read from the store.
    const reactionOn = async (messageId: string, sender: string) =>
      (await t.app.store.messageReactions.find(messageId, sender))?.reaction;
    const dinner = await sendDelivered(t, {
      to: IMESSAGE_CONTACT,
      content: { text: 'Dinner at 8?' },
    });
    /** The contact `from` reacts on `channel` to the customer's message `messageId`. */
    const reactor =
      (channel: string, from: string, messageId: string) => (body: Record<string, unknown>) =>
        t.acme.ok('POST', '/v1/sandbox/reactions', {
          channel,
          from,
          to: OWN_NUMBER,
          messageId,
          ...body,
        });
    const react = reactor('imessage', IMESSAGE_CONTACT, dinner.id);

    await react({ type: 'love' });
    expect(await reactionOn(dinner.id, IMESSAGE_CONTACT)).toBe('love');
    await react({ type: 'like' });
    expect(await reactionOn(dinner.id, IMESSAGE_CONTACT)).toBe('like');
    await t.acme.ok('POST', `/v1/messages/${dinner.id}/reactions`, { type: 'laugh' });
    expect(await reactionOn(dinner.id, OWN_NUMBER)).toBe('laugh');
    // An iMessage tapback is only taken back by its own removal.
    await react({ type: 'love', remove: true });
    expect(await reactionOn(dinner.id, IMESSAGE_CONTACT)).toBe('like');
    await react({ type: 'like', remove: true });
    expect(await reactionOn(dinner.id, IMESSAGE_CONTACT)).toBeUndefined();
    expect(await reactionOn(dinner.id, OWN_NUMBER)).toBe('laugh');

    // On whatsapp a tapback is kept as its emoji, and any removal clears the contact's reaction.
    const hello = await sendDelivered(t, {
      to: WHATSAPP_CONTACT,
      content: { text: 'Hello' },
      routing: { preference: ['whatsapp'] },
    });
    const reactOnWhatsApp = reactor('whatsapp', WHATSAPP_CONTACT, hello.id);
    await reactOnWhatsApp({ type: 'love' });
    expect(await reactionOn(hello.id, WHATSAPP_CONTACT)).toBe('❤️');
    await reactOnWhatsApp({ type: 'emoji', emoji: '🎉' });
    expect(await reactionOn(hello.id, WHATSAPP_CONTACT)).toBe('🎉');
    await reactOnWhatsApp({ type: 'like', remove: true });
    expect(await reactionOn(hello.id, WHATSAPP_CONTACT)).toBeUndefined();
  });

  it('typing is an event on whatsapp only', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    const imessage = await t.acme.ok<{ emitted: boolean }>('POST', '/v1/sandbox/typing', {
      channel: 'imessage',
      from: IMESSAGE_CONTACT,
      to: OWN_NUMBER,
      status: 'start',
    });
    expect(imessage.emitted).toBe(false);
    const whatsapp = await t.acme.ok<{ emitted: boolean }>('POST', '/v1/sandbox/typing', {
      channel: 'whatsapp',
      from: WHATSAPP_CONTACT,
      to: OWN_NUMBER,
      status: 'start',
    });
    expect(whatsapp.emitted).toBe(true);
    const typing = await observed.both(ofType('typing.indicator'));
    expect(typing.data).toEqual({
      chatId: '14155550160@s.whatsapp.net',
      from: WHATSAPP_CONTACT,
      to: OWN_NUMBER,
      channel: 'whatsapp',
      status: 'start',
    });
    expect(observed.stream.filter((e) => e.type === 'typing.indicator')).toHaveLength(1);
  });

  it('a read receipt moves a delivered message to read; sms has none', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    // Row 50–59: Focus mode on, delivered and never read by itself.
    const sent = await sendDelivered(t, { to: '+14155550150', content: { text: 'ping' } });
    expect(sent.status).toBe('delivered');
    const receipt = await t.acme.ok('POST', `/v1/sandbox/messages/${sent.id}/status`, {
      status: 'read',
    });
    expect(receipt).toEqual({ messageId: sent.id, externalId: sent.externalId, status: 'read' });
    await observed.both(ofType('message.read', (e) => e.data.messageId === sent.id));
    expect((await waitForStatus(t, sent.id, ['read'])).status).toBe('read');

    const sms = await sendDelivered(t, { to: '+14155550111', content: { text: 'sms' } });
    expectFailure(
      await t.acme.request('POST', `/v1/sandbox/messages/${sms.id}/status`, { status: 'read' }),
      400,
      'CHANNEL_NOT_SUPPORTED',
    );
    expectFailure(
      await t.acme.request('POST', '/v1/sandbox/messages/msg_unknown/status', { status: 'read' }),
      404,
      'NOT_FOUND',
    );
  });

  it('a kept voice note names the audio message', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    const memo = await sendDelivered(t, {
      to: IMESSAGE_CONTACT,
      attachments: [{ data: 'T2dnUw==', mimeType: 'audio/ogg', isAudioMessage: true }],
    });
    const kept = await t.acme.ok<{ externalId: string; targetMessageId: string }>(
      'POST',
      '/v1/sandbox/audio-kept',
      { from: IMESSAGE_CONTACT, to: OWN_NUMBER, messageId: memo.id },
    );
    expect(kept.targetMessageId).toBe(memo.id);
    const event = await observed.both(ofType('message.audio_kept'));
    expect(event.data).toEqual({
      externalMessageId: kept.externalId,
      targetMessageId: memo.id,
      targetExternalId: memo.externalId,
      from: IMESSAGE_CONTACT,
      to: OWN_NUMBER,
      channel: 'imessage',
    });
  });

  it('group changes by contacts are applied to the chat and emitted', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    const group = await createGroup(t.acme, {
      participants: [IMESSAGE_CONTACT],
      name: 'Book club',
    });
    const act = (body: Record<string, unknown>) =>
      t.acme.ok<{ externalId: string; conversationId: string }>(
        'POST',
        `/v1/sandbox/chats/${encodeURIComponent(group.chatId)}/events`,
        { actor: IMESSAGE_CONTACT, ...body },
      );
    const renamed = await act({ action: 'title.changed', title: 'Book club 📚' });
    const title = await observed.both(ofType('chat.title.changed'));
    expect(title.data).toEqual({
      externalMessageId: renamed.externalId,
      chatId: group.chatId,
      conversationId: group.conversationId,
      actor: IMESSAGE_CONTACT,
      to: OWN_NUMBER,
      channel: 'imessage',
      title: 'Book club 📚',
    });
    await act({ action: 'participant.added', participant: 'bob@example.com' });
    const added = await observed.both(ofType('chat.participant.added'));
    expect(added.data.participant).toBe('bob@example.com');
    await act({ action: 'participant.left', participant: IMESSAGE_CONTACT });
    await observed.both(ofType('chat.participant.left'));
    await act({ action: 'photo.changed', actor: 'bob@example.com' });
    const photo = await observed.both(ofType('chat.photo.changed'));
    expect(photo.data).not.toHaveProperty('title');
    const chat = await t.acme.ok<{ name: string; participants: string[] }>(
      'GET',
      chatUrl(group.chatId),
    );
    expect(chat).toMatchObject({ name: 'Book club 📚', participants: ['bob@example.com'] });
    expectFailure(
      await t.acme.request('POST', '/v1/sandbox/chats/iMessage%3B%2B%3Bchat1/events', {
        action: 'photo.changed',
        actor: IMESSAGE_CONTACT,
      }),
      404,
      'CONVERSATION_NOT_FOUND',
    );
  });

  it('FaceTime calls and their status changes have flat bodies', async () => {
    const t = await buildChatApp();
    const observed = await observe(t.app, t.acme);
    const call = await t.acme.ok<{ callUuid: string; status: string }>(
      'POST',
      '/v1/sandbox/facetime/calls',
      { caller: IMESSAGE_CONTACT, to: OWN_NUMBER, video: false },
    );
    expect(call.status).toBe('incoming');
    const incoming = await observed.both(ofType('facetime.incoming'));
    expect(incoming).toEqual({
      type: 'facetime.incoming',
      eventId: expect.stringMatching(/^evt_/),
      callUuid: call.callUuid,
      to: OWN_NUMBER,
      isAudio: true,
      isVideo: false,
      caller: IMESSAGE_CONTACT,
      timestamp: t.clock.now(),
    });
    for (const status of ['answered', 'disconnected'] as const) {
      await t.acme.ok('POST', `/v1/sandbox/facetime/calls/${call.callUuid}/status`, { status });
      const changed = await observed.both(
        ofType('facetime.status_changed', (e) => e.status === status),
      );
      expect(changed).toEqual({
        type: 'facetime.status_changed',
        eventId: expect.stringMatching(/^evt_/),
        callUuid: call.callUuid,
        to: OWN_NUMBER,
        isAudio: true,
        isVideo: false,
        address: IMESSAGE_CONTACT,
        status,
        isOutgoing: false,
      });
    }
    expectFailure(
      await t.acme.request('POST', `/v1/sandbox/facetime/calls/${call.callUuid}/status`, {
        status: 'answered',
      }),
      400,
      'INVALID_STATUS',
    );
    expectFailure(
      await t.acme.request('POST', '/v1/sandbox/facetime/calls/NOPE/status', { status: 'missed' }),
      404,
      'NOT_FOUND',
    );
  });
});
