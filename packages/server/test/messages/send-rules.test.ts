import type { Message } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { assignNumber, createCustomerWithKey } from '../support/admin-helpers';
import { expectFailure } from '../support/envelope-assertions';
import { bearer, bodyOf } from '../support/test-app';
import {
  buildMessagingApp,
  errorCodeOf,
  otherCustomer,
  SECOND_SENDER,
  SENDER,
  timelineOf,
} from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

const DELIVERED = '+14155550199';
const READS = '+14155550102';
const NO_IMESSAGE = '+14155550111';
const UNREACHABLE = '+14155550142';
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('POST /v1/messages: acceptance', () => {
  it('answers 202 with the accepted message once it and its message.queued event are stored', async () => {
    const t = await buildMessagingApp();
    const response = await t.send({ to: DELIVERED, content: { text: 'Your order shipped' } });
    expect(response.statusCode).toBe(202);
    const data = bodyOf<{ data: Record<string, unknown> }>(response).data;
    expect(data).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-f-]{36}$/),
      status: 'queued',
      to: DELIVERED,
      from: SENDER,
      createdAt: '2026-01-15T12:00:00.000Z',
    });
    // Committed before the answer: the event was published and the message can be read at once.
    expect(t.events.map((event) => event.type)).toContain('message.queued');
    const queued = t.events.find((event) => event.type === 'message.queued');
    expect(queued).toMatchObject({
      data: {
        messageId: data.id,
        externalMessageId: null,
        from: SENDER,
        to: DELIVERED,
        text: 'Your order shipped',
        channel: null,
        metadata: null,
        status: 'queued',
      },
    });
    const message = await t.waitForStatus(String(data.id), 'delivered');
    expect(message).toMatchObject({
      direction: 'outbound',
      channel: 'imessage',
      content: { text: 'Your order shipped' },
      fallbackTriggered: false,
      externalId: expect.any(String),
      errorCode: null,
      retryCount: 0,
    });
  });

  it('refuses an empty send, both or neither recipients, and mediaUrls with attachments (rules 1, 2, 4)', async () => {
    const t = await buildMessagingApp();
    const cases: [Record<string, unknown>, string][] = [
      [{ to: DELIVERED }, 'VALIDATION_ERROR'],
      [{ to: DELIVERED, content: { text: '   ' } }, 'VALIDATION_ERROR'],
      [{ content: { text: 'hi' } }, 'INVALID_REQUEST'],
      [
        { to: DELIVERED, chatId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f', content: { text: 'hi' } },
        'INVALID_REQUEST',
      ],
      [
        {
          chatId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
          conversationId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e50',
          content: { text: 'hi' },
        },
        'INVALID_REQUEST',
      ],
      [
        {
          to: DELIVERED,
          content: { mediaUrls: ['https://cdn.example.com/a.png'] },
          attachments: [{ url: 'https://cdn.example.com/b.pdf' }],
        },
        'VALIDATION_ERROR',
      ],
      [{ to: '0415 555 0100', content: { text: 'hi' } }, 'INVALID_PHONE_NUMBER'],
      [{ to: 'bob', content: { text: 'hi' } }, 'INVALID_RECIPIENT'],
      [{ to: DELIVERED, from: '415-555-0100', content: { text: 'hi' } }, 'INVALID_PHONE_NUMBER'],
    ];
    for (const [body, code] of cases) {
      const response = await t.send(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorCodeOf(response), JSON.stringify(body)).toBe(code);
    }
    expect(
      bodyOf<{ data: { messages: unknown[] } }>(await t.request('GET', '/v1/messages')).data
        .messages,
    ).toEqual([]);
  });

  it('answers chat-keyed sends to an unknown chat with 404 CONVERSATION_NOT_FOUND (rule 3)', async () => {
    const t = await buildMessagingApp();
    const response = await t.send({
      chatId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      content: { text: 'hi' },
    });
    expect(response.statusCode).toBe(404);
    expect(errorCodeOf(response)).toBe('CONVERSATION_NOT_FOUND');
  });
});

describe('POST /v1/messages: sender (rule 12)', () => {
  it('sends from the default address, or from an authorized `from` and its instance', async () => {
    const t = await buildMessagingApp();
    const byDefault = await t.sendOk({ to: DELIVERED, content: { text: 'a' } });
    expect((await t.get(byDefault)).from).toBe(SENDER);
    const explicit = await t.send({ to: DELIVERED, from: SECOND_SENDER, content: { text: 'b' } });
    expect(bodyOf<{ data: { from: string } }>(explicit).data.from).toBe(SECOND_SENDER);
  });

  it('accepts the e-mail style address of a number as `from`', async () => {
    const t = await buildMessagingApp();
    const { customer, key } = await createCustomerWithKey(t.app, 'Mail');
    await assignNumber(t.app, customer.id, {
      phoneNumber: '+14155550177',
      instanceId: t.instanceId,
      isDefault: true,
      email: 'support@example.com',
    });
    const response = await t.send(
      { to: 'ada@example.com', from: 'support@example.com', content: { text: 'hi' } },
      key,
    );
    expect(response.statusCode, response.body).toBe(202);
    expect(bodyOf<{ data: { from: string } }>(response).data.from).toBe('support@example.com');
  });

  it('answers 403 ADDRESS_NOT_AUTHORIZED for an address that is not the customer’s', async () => {
    const t = await buildMessagingApp();
    await otherCustomer(t.app, t.instanceId, '+14155550188');
    for (const from of ['+14155550188', '+14155550187', 'nobody@example.com']) {
      const response = await t.send({ to: DELIVERED, from, content: { text: 'hi' } });
      expect(response.statusCode, from).toBe(403);
      expect(errorCodeOf(response)).toBe('ADDRESS_NOT_AUTHORIZED');
    }
  });

  it('answers 400 NO_DEFAULT_ADDRESS when `from` is omitted and no default is configured', async () => {
    const t = await buildMessagingApp();
    const { customer, key } = await createCustomerWithKey(t.app, 'No default');
    await assignNumber(t.app, customer.id, {
      phoneNumber: '+14155550176',
      instanceId: t.instanceId,
    });
    const response = await t.send({ to: DELIVERED, content: { text: 'hi' } }, key);
    expect(response.statusCode).toBe(400);
    expect(errorCodeOf(response)).toBe('NO_DEFAULT_ADDRESS');
    const withFrom = await t.send(
      { to: DELIVERED, from: '+14155550176', content: { text: 'hi' } },
      key,
    );
    expect(withFrom.statusCode).toBe(202);
  });
});

describe('POST /v1/messages: reachability and routing', () => {
  it('answers 400 NO_CHANNEL_AVAILABLE when no allowed channel reaches the recipient', async () => {
    const t = await buildMessagingApp();
    const cases: Record<string, unknown>[] = [
      { to: UNREACHABLE, content: { text: 'hi' } },
      { to: NO_IMESSAGE, content: { text: 'hi' }, routing: { fallback: false } },
      { to: READS, content: { text: 'hi' }, routing: { preference: ['whatsapp'] } },
      { to: 'ada@example.com', content: { text: 'hi' }, routing: { preference: ['sms'] } },
    ];
    for (const body of cases) {
      const response = await t.send(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorCodeOf(response)).toBe('NO_CHANNEL_AVAILABLE');
    }
  });

  it('answers NO_CHANNEL_AVAILABLE when the sending instance serves none of the channels', async () => {
    const t = await buildMessagingApp();
    const instance = bodyOf<{ data: { id: string } }>(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/instances',
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
        payload: { name: 'whatsapp-only', provider: 'simulator', channels: ['whatsapp'] },
      }),
    ).data;
    await assignNumber(t.app, t.customerId, {
      phoneNumber: '+14155550175',
      instanceId: instance.id,
    });
    const response = await t.send({ to: DELIVERED, from: '+14155550175', content: { text: 'hi' } });
    expect(response.statusCode).toBe(400);
    expect(errorCodeOf(response)).toBe('NO_CHANNEL_AVAILABLE');
  });

  it('routes by `routing.preference`, and pins WhatsApp group JIDs to whatsapp', async () => {
    const t = await buildMessagingApp();
    const sms = await t.sendOk({
      to: READS,
      content: { text: 'hi' },
      routing: { preference: ['sms'] },
    });
    const group = await t.sendOk({ to: '120363123456789012@g.us', content: { text: 'hi all' } });
    expect(timelineOf(await t.waitForStatus(sms, 'delivered'))).toEqual([
      'queued:-',
      'sent:sms',
      'delivered:sms',
    ]);
    const groupMessage = await t.waitForStatus(group, 'delivered');
    expect(groupMessage).toMatchObject({ channel: 'whatsapp', fallbackTriggered: false });
  });
});

describe('POST /v1/messages: content on each channel', () => {
  it('hands the provider effects on imessage only, mentions on whatsapp groups only', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const mention = { address: '+14155550123', start: 0, length: 3 };
    const imessage = await t.sendOk({
      to: DELIVERED,
      content: { text: 'Ada, look' },
      effect: 'confetti',
      mentions: [mention],
    });
    const sms = await t.sendOk({ to: NO_IMESSAGE, content: { text: 'hi' }, effect: 'slam' });
    const group = await t.sendOk({
      to: '120363123456789012@g.us',
      content: { text: 'Ada, look' },
      effect: 'balloons',
      mentions: [mention],
    });
    await t.waitForStatus(imessage, 'delivered');
    await t.waitForStatus(sms, 'delivered');
    await t.waitForStatus(group, 'delivered');
    const sendOf = (id: string) => calls.sends.filter((send) => send.messageId === id);
    expect(sendOf(imessage)).toMatchObject([{ channel: 'imessage', effect: 'confetti' }]);
    expect(sendOf(imessage)[0]).not.toHaveProperty('mentions');
    expect(sendOf(sms)).toHaveLength(1);
    expect(sendOf(sms)[0]).toMatchObject({ channel: 'sms' });
    expect(sendOf(sms)[0]).not.toHaveProperty('effect');
    expect(sendOf(group)).toMatchObject([
      {
        channel: 'whatsapp',
        to: { type: 'chat', chatId: '120363123456789012@g.us' },
        mentions: [mention],
      },
    ]);
    expect(sendOf(group)[0]).not.toHaveProperty('effect');
    // The stored message keeps the effect that was asked for.
    expect((await t.get(sms)).effect).toBe('slam');
  });

  it('hands the provider messageType carousel with the media URLs, except on whatsapp', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const mediaUrls = ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'];
    const imessage = await t.sendOk({
      to: DELIVERED,
      content: { mediaUrls },
      messageType: 'carousel',
    });
    const sms = await t.sendOk({
      to: NO_IMESSAGE,
      content: { mediaUrls },
      messageType: 'carousel',
    });
    const whatsapp = await t.sendOk({
      to: '+14155550160',
      content: { mediaUrls },
      messageType: 'carousel',
      routing: { preference: ['whatsapp'] },
    });
    const plain = await t.sendOk({ to: DELIVERED, content: { mediaUrls } });
    for (const id of [imessage, sms, whatsapp, plain])
      await t.waitForStatus(id, 'delivered', 'read');
    const sendOf = (id: string) => calls.sends.filter((send) => send.messageId === id);
    expect(sendOf(imessage)).toMatchObject([
      { channel: 'imessage', mediaUrls, messageType: 'carousel' },
    ]);
    expect(sendOf(sms)).toMatchObject([{ channel: 'sms', mediaUrls, messageType: 'carousel' }]);
    expect(sendOf(whatsapp)).toMatchObject([{ channel: 'whatsapp', mediaUrls }]);
    expect(sendOf(whatsapp)[0]).not.toHaveProperty('messageType');
    expect(sendOf(plain)[0]).not.toHaveProperty('messageType');
  });

  it('stores attachment metadata (never the bytes), infers MIME types, and sends the bytes', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const id = await t.sendOk({
      to: DELIVERED,
      attachments: [
        { data: PNG_1PX },
        { type: 'url', url: 'https://cdn.example.com/files/invoice.pdf', filename: 'invoice.pdf' },
        {
          // An ID3 tag and the header of one MPEG audio frame: an MP3 by its bytes.
          data: 'SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4Ljc2LjEwMAAAAAAAAAAAAAAA//uQxAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
          isAudioMessage: true,
        },
      ],
    });
    const message = await t.waitForStatus(id, 'delivered');
    expect(message.attachments).toEqual([
      {
        mimeType: 'image/png',
        filename: null,
        totalBytes: 68,
        isAudioMessage: false,
        url: null,
        downloadUrl: null,
      },
      {
        mimeType: 'application/pdf',
        filename: 'invoice.pdf',
        totalBytes: null,
        isAudioMessage: false,
        url: 'https://cdn.example.com/files/invoice.pdf',
        downloadUrl: null,
      },
      {
        mimeType: 'audio/mpeg',
        filename: null,
        totalBytes: 89,
        isAudioMessage: true,
        url: null,
        downloadUrl: null,
      },
    ]);
    expect(JSON.stringify(message)).not.toContain(PNG_1PX);
    const [send] = calls.sends.filter((request) => request.messageId === id);
    expect(send?.attachments?.map((attachment) => attachment.source.kind)).toEqual([
      'bytes',
      'url',
      'bytes',
    ]);
    expect(send?.attachments?.[0]?.mimeType).toBe('image/png');
    expect(send?.attachments?.[2]).toMatchObject({ isAudioMessage: true, mimeType: 'audio/mpeg' });
    expect(send).not.toHaveProperty('text');
  });

  it('keeps metadata, createContact and the reply target', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const first = await t.sendOk({ to: DELIVERED, content: { text: 'first' } });
    const original = await t.waitForStatus(first, 'delivered');
    const reply = await t.sendOk({
      to: DELIVERED,
      content: { text: 'second' },
      replyTo: first,
      metadata: { orderId: 'ord_1', attempt: 2, vip: true, note: null },
      createContact: true,
    });
    const message = await t.waitForStatus(reply, 'delivered');
    expect(message).toMatchObject({
      replyTo: first,
      metadata: { orderId: 'ord_1', attempt: 2, vip: true, note: null },
    });
    const [send] = calls.sends.filter((request) => request.messageId === reply);
    expect(send).toMatchObject({
      createContact: true,
      replyTo: { externalId: original.externalId, fromMe: true },
    });
  });

  it('answers 404 REPLY_NOT_FOUND for an unknown, foreign or deleted reply target', async () => {
    const t = await buildMessagingApp();
    const other = await otherCustomer(t.app, t.instanceId, '+14155550188');
    const foreign = bodyOf<{ data: { id: string } }>(
      await t.send({ to: DELIVERED, content: { text: 'theirs' } }, other.key),
    ).data.id;
    const deleted = await t.sendOk({ to: DELIVERED, content: { text: 'gone' } });
    expect((await t.request('DELETE', `/v1/messages/${deleted}`)).statusCode).toBe(200);
    for (const replyTo of ['msg_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f', foreign, deleted]) {
      const response = await t.send({ to: DELIVERED, content: { text: 'hi' }, replyTo });
      expect(response.statusCode, replyTo).toBe(404);
      expect(errorCodeOf(response)).toBe('REPLY_NOT_FOUND');
    }
  });
});

describe('POST /v1/messages: scheduledAt (rule 10)', () => {
  it('checks the format, the past and the 30-day horizon against the server clock', async () => {
    const t = await buildMessagingApp();
    const now = t.clock.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const cases: [string, string][] = [
      ['tomorrow', 'INVALID_SCHEDULED_AT'],
      ['2026-01-16T10:00:00', 'INVALID_SCHEDULED_AT'],
      [at(-1), 'SCHEDULED_IN_PAST'],
      [at(0), 'SCHEDULED_IN_PAST'],
      [at(30 * 86_400_000 + 1), 'SCHEDULED_TOO_FAR'],
    ];
    for (const [scheduledAt, code] of cases) {
      const response = await t.send({ to: DELIVERED, content: { text: 'hi' }, scheduledAt });
      expect(response.statusCode, scheduledAt).toBe(400);
      expect(errorCodeOf(response), scheduledAt).toBe(code);
    }
    const edge = await t.send({
      to: DELIVERED,
      content: { text: 'hi' },
      scheduledAt: at(30 * 86_400_000),
    });
    expect(edge.statusCode).toBe(202);
  });

  it('answers `scheduled` and emits message.scheduled; the message waits', async () => {
    const t = await buildMessagingApp();
    const scheduledAt = new Date(t.clock.now() + 3_600_000).toISOString();
    const response = await t.send({ to: DELIVERED, content: { text: 'later' }, scheduledAt });
    expect(response.statusCode).toBe(202);
    const data = bodyOf<{ data: { id: string; status: string } }>(response).data;
    expect(data.status).toBe('scheduled');
    const message = await t.get(data.id);
    expect(message).toMatchObject({ status: 'scheduled', scheduledAt, channel: null });
    expect(timelineOf(message)).toEqual(['scheduled:-']);
    expect(t.eventTypes(data.id)).toEqual(['message.scheduled']);
  });
});

describe('POST /v1/messages: idempotency (rule 11)', () => {
  it('takes the Idempotency-Key header like the body field, and refuses the two when they differ', async () => {
    const t = await buildMessagingApp();
    const post = (payload: object, key?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: { ...bearer(t.key), ...(key === undefined ? {} : { 'idempotency-key': key }) },
        payload,
      });
    const first = await post({ to: DELIVERED, content: { text: 'one' } }, 'h-1');
    expect(first.statusCode).toBe(202);
    const byHeader = await post({ to: DELIVERED, content: { text: 'one' } }, 'h-1');
    expect(byHeader.statusCode).toBe(200);
    expect(byHeader.headers['idempotent-replayed']).toBe('true');
    expect(bodyOf<{ data: { id: string } }>(byHeader).data.id).toBe(
      bodyOf<{ data: { id: string } }>(first).data.id,
    );
    // The header and the body field name the same key.
    const byBody = await post({ to: DELIVERED, content: { text: 'one' }, idempotencyKey: 'h-1' });
    expect(byBody.statusCode).toBe(200);
    const same = await post(
      { to: DELIVERED, content: { text: 'one' }, idempotencyKey: 'h-1' },
      'h-1',
    );
    expect(same.statusCode).toBe(200);
    expectFailure(
      await post({ to: DELIVERED, content: { text: 'x' }, idempotencyKey: 'a' }, 'b'),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(
      await post({ to: DELIVERED, content: { text: 'x' } }, 'k'.repeat(256)),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('answers 200 with the first message as it is now for a repeated key, whatever the body; keys are per customer', async () => {
    const t = await buildMessagingApp();
    const first = await t.send({ to: DELIVERED, content: { text: 'one' }, idempotencyKey: 'k-1' });
    expect(first.statusCode).toBe(202);
    const id = bodyOf<{ data: { id: string } }>(first).data.id;
    await t.waitForStatus(id, 'delivered');
    const again = await t.send({ to: READS, content: { text: 'two' }, idempotencyKey: 'k-1' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The message the key created, as GET answers it now: delivered, not frozen at `queued`.
    const current = bodyOf<{ data: Message }>(await t.request('GET', `/v1/messages/${id}`)).data;
    const replayed = bodyOf<{ data: Message }>(again).data;
    expect(replayed).toMatchObject({ id, to: DELIVERED, status: 'delivered' });
    expect(replayed).toEqual(current);
    // Nothing was sent again.
    expect(t.eventTypes(id).filter((type) => type === 'message.queued')).toHaveLength(1);

    const other = await otherCustomer(t.app, t.instanceId, '+14155550188');
    const theirs = await t.send(
      { to: DELIVERED, content: { text: 'x' }, idempotencyKey: 'k-1' },
      other.key,
    );
    expect(theirs.statusCode).toBe(202);
    expect(bodyOf<{ data: { id: string } }>(theirs).data.id).not.toBe(id);
  });

  it('answers 409 ALREADY_DELETED for the key of a deleted message, and sends nothing again', async () => {
    const t = await buildMessagingApp();
    const first = await t.send({ to: DELIVERED, content: { text: 'one' }, idempotencyKey: 'gone' });
    expect(first.statusCode).toBe(202);
    const id = bodyOf<{ data: { id: string } }>(first).data.id;
    await t.waitForStatus(id, 'delivered');
    expect((await t.request('DELETE', `/v1/messages/${id}`)).statusCode).toBe(200);
    const replay = await t.send({
      to: DELIVERED,
      content: { text: 'one' },
      idempotencyKey: 'gone',
    });
    const failure = expectFailure(replay, 409, 'ALREADY_DELETED');
    expect(failure.error.message).toContain(id);
    const list = bodyOf<{ data: { messages: Message[] } }>(await t.request('GET', '/v1/messages'));
    expect(list.data.messages).toHaveLength(0);
    // A new key sends again.
    expect(
      (await t.send({ to: DELIVERED, content: { text: 'one' }, idempotencyKey: 'again' }))
        .statusCode,
    ).toBe(202);
  });

  it('creates exactly one message for 50 concurrent sends with one key', async () => {
    const t = await buildMessagingApp();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        t.send({ to: DELIVERED, content: { text: `attempt ${index}` }, idempotencyKey: 'burst' }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(49);
    const ids = new Set(
      responses.map((response) => bodyOf<{ data: { id: string } }>(response).data.id),
    );
    expect(ids.size).toBe(1);
    const list = bodyOf<{ data: { messages: Message[] } }>(await t.request('GET', '/v1/messages'));
    expect(list.data.messages).toHaveLength(1);
    const [id] = ids;
    await t.waitForStatus(String(id), 'delivered');
    expect(t.eventTypes(String(id)).filter((type) => type === 'message.queued')).toHaveLength(1);
    expect(t.eventTypes(String(id)).filter((type) => type === 'message.sent')).toHaveLength(1);
  });
});
