import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Switchboard } from '../src/index';
import { type LoopbackServer, ok, sendJson, startLoopbackServer } from './support/loopback-server';

let server: LoopbackServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startLoopbackServer((req, res) => {
    const list = { pagination: { hasMore: false, nextCursor: null } };
    if (req.url.startsWith('/v1/messages?') || req.url.startsWith('/v1/messages/scheduled')) {
      sendJson(res, 200, ok({ messages: [], ...list }));
    } else if (req.url.startsWith('/v1/attachments/')) {
      res.writeHead(200, {
        'content-type': 'image/png',
        'content-disposition': `attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`,
        'x-request-id': 'req_download',
      });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    } else if (req.url.includes('/deliveries?') || req.url.endsWith('/deliveries')) {
      sendJson(res, 200, ok({ deliveries: [], ...list }));
    } else if (req.url.includes('/events?') || req.url.endsWith('/events')) {
      sendJson(res, 200, ok({ events: [], ...list }));
    } else {
      sendJson(res, 200, ok({ echoed: true }));
    }
  });
  client = new Switchboard({ apiKey: 'sk_test', baseUrl: server.baseUrl, maxRetries: 0 });
});
afterAll(() => server.close());

const MSG = 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e';
const CHAT = 'iMessage;+;chat493';
const CHAT_PATH = encodeURIComponent(CHAT);
const HOOK = '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f';
const NUMBER = '+14155550199';

type Call = [
  name: string,
  call: () => PromiseLike<unknown>,
  method: string,
  url: string,
  body?: unknown,
];

const calls: Call[] = [
  [
    'messages.send',
    () =>
      client.messages.send({ to: '+14155550100', content: { text: 'Hi' }, idempotencyKey: 'k' }),
    'POST',
    '/v1/messages',
    { to: '+14155550100', content: { text: 'Hi' }, idempotencyKey: 'k' },
  ],
  [
    'messages.list',
    () => client.messages.list({ status: 'failed' }),
    'GET',
    '/v1/messages?status=failed',
  ],
  [
    'messages.listScheduled',
    () => client.messages.listScheduled({ limit: 5 }),
    'GET',
    '/v1/messages/scheduled?limit=5',
  ],
  ['messages.get', () => client.messages.get(MSG), 'GET', `/v1/messages/${MSG}`],
  ['messages.routing', () => client.messages.routing(MSG), 'GET', `/v1/messages/${MSG}/routing`],
  [
    'messages.listEvents',
    () => client.messages.listEvents(MSG),
    'GET',
    `/v1/messages/${MSG}/events`,
  ],
  ['messages.retry', () => client.messages.retry(MSG), 'POST', `/v1/messages/${MSG}/retry`],
  ['messages.unsend', () => client.messages.unsend(MSG), 'POST', `/v1/messages/${MSG}/unsend`],
  [
    'messages.edit',
    () => client.messages.edit(MSG, { text: 'Fixed' }),
    'PUT',
    `/v1/messages/${MSG}`,
    { text: 'Fixed' },
  ],
  [
    'messages.react',
    () => client.messages.react(MSG, { type: '-love' }),
    'POST',
    `/v1/messages/${MSG}/reactions`,
    { type: '-love' },
  ],
  ['messages.delete', () => client.messages.delete(MSG), 'DELETE', `/v1/messages/${MSG}`],
  [
    'messages.cancelSchedule',
    () => client.messages.cancelSchedule(MSG),
    'DELETE',
    `/v1/messages/${MSG}/schedule`,
  ],
  [
    'chats.createGroup',
    () => client.chats.createGroup({ participants: ['+14155550100'], name: 'Team' }),
    'POST',
    '/v1/chats/groups',
    { participants: ['+14155550100'], name: 'Team' },
  ],
  ['chats.get', () => client.chats.get(CHAT), 'GET', `/v1/chats/${CHAT_PATH}`],
  [
    'chats.rename',
    () => client.chats.rename(CHAT, { name: 'New' }),
    'PUT',
    `/v1/chats/${CHAT_PATH}/name`,
    { name: 'New' },
  ],
  [
    'chats.addParticipant',
    () => client.chats.addParticipant(CHAT, { participant: '+14155550101' }),
    'POST',
    `/v1/chats/${CHAT_PATH}/participants`,
    { participant: '+14155550101' },
  ],
  [
    'chats.removeParticipant',
    () => client.chats.removeParticipant(CHAT, '+14155550101'),
    'DELETE',
    `/v1/chats/${CHAT_PATH}/participants/%2B14155550101`,
  ],
  ['chats.leave', () => client.chats.leave(CHAT), 'POST', `/v1/chats/${CHAT_PATH}/leave`],
  ['chats.markRead', () => client.chats.markRead(CHAT), 'POST', `/v1/chats/${CHAT_PATH}/read`],
  [
    'chats.markUnread',
    () => client.chats.markUnread(CHAT),
    'POST',
    `/v1/chats/${CHAT_PATH}/unread`,
  ],
  [
    'chats.typing',
    () => client.chats.typing(CHAT, { status: 'stop' }),
    'POST',
    `/v1/chats/${CHAT_PATH}/typing`,
    { status: 'stop' },
  ],
  [
    'capabilities.get',
    () => client.capabilities.get('+14155550100'),
    'GET',
    '/v1/capabilities/%2B14155550100',
  ],
  ['numbers.list', () => client.numbers.list(), 'GET', '/v1/numbers'],
  [
    'numbers.sendPolicy',
    () => client.numbers.sendPolicy(NUMBER),
    'GET',
    '/v1/numbers/%2B14155550199/send-policy',
  ],
  [
    'contactErasures.create',
    () => client.contactErasures.create({ address: '+14155550123' }),
    'POST',
    '/v1/contact-erasures',
    { address: '+14155550123' },
  ],
  ['contactErasures.list', () => client.contactErasures.list(), 'GET', '/v1/contact-erasures'],
  [
    'webhooks.create',
    () => client.webhooks.create({ url: 'https://example.com/h', events: ['*'] }),
    'POST',
    '/v1/webhooks',
    { url: 'https://example.com/h', events: ['*'] },
  ],
  ['webhooks.list', () => client.webhooks.list(), 'GET', '/v1/webhooks/list'],
  ['webhooks.get', () => client.webhooks.get(HOOK), 'GET', `/v1/webhooks/${HOOK}`],
  [
    'webhooks.update',
    () => client.webhooks.update(HOOK, { active: false }),
    'PATCH',
    `/v1/webhooks/${HOOK}`,
    { active: false },
  ],
  ['webhooks.delete', () => client.webhooks.delete(HOOK), 'DELETE', `/v1/webhooks/${HOOK}`],
  ['webhooks.test', () => client.webhooks.test(HOOK), 'POST', `/v1/webhooks/${HOOK}/test`],
  [
    'webhooks.rotateSecret',
    () => client.webhooks.rotateSecret(HOOK),
    'POST',
    `/v1/webhooks/${HOOK}/rotate-secret`,
  ],
  [
    'webhooks.listDeliveries',
    () => client.webhooks.listDeliveries(HOOK),
    'GET',
    `/v1/webhooks/${HOOK}/deliveries`,
  ],
  [
    'webhooks.redeliver',
    () => client.webhooks.redeliver(HOOK, 'd1'),
    'POST',
    `/v1/webhooks/${HOOK}/deliveries/d1/redeliver`,
  ],
  ['webhooks.legacy.get', () => client.webhooks.legacy.get(), 'GET', '/v1/webhooks'],
  [
    'webhooks.legacy.put',
    () => client.webhooks.legacy.put({ url: 'https://example.com/h', events: ['*'] }),
    'PUT',
    '/v1/webhooks',
    { url: 'https://example.com/h', events: ['*'] },
  ],
  ['webhooks.legacy.delete', () => client.webhooks.legacy.delete(), 'DELETE', '/v1/webhooks'],
  ['webhooks.legacy.test', () => client.webhooks.legacy.test(), 'POST', '/v1/webhooks/test'],
  [
    'webhooks.legacy.rotateSecret',
    () => client.webhooks.legacy.rotateSecret(),
    'POST',
    '/v1/webhooks/rotate-secret',
  ],
  ['whatsapp.list', () => client.whatsapp.list(), 'GET', '/v1/whatsapp'],
  [
    'whatsapp.enable',
    () => client.whatsapp.enable(NUMBER),
    'POST',
    '/v1/whatsapp/numbers/%2B14155550199/enable',
  ],
  [
    'whatsapp.status',
    () => client.whatsapp.status(NUMBER),
    'GET',
    '/v1/whatsapp/numbers/%2B14155550199/status',
  ],
  [
    'whatsapp.qr',
    () => client.whatsapp.qr(NUMBER),
    'GET',
    '/v1/whatsapp/numbers/%2B14155550199/qr',
  ],
  [
    'whatsapp.pairingCode',
    () => client.whatsapp.pairingCode(NUMBER),
    'POST',
    '/v1/whatsapp/numbers/%2B14155550199/pairing-code',
  ],
  [
    'whatsapp.pairingCode with a body',
    () => client.whatsapp.pairingCode(NUMBER, { phoneNumber: '+14155550100' }),
    'POST',
    '/v1/whatsapp/numbers/%2B14155550199/pairing-code',
    { phoneNumber: '+14155550100' },
  ],
  [
    'whatsapp.disconnect',
    () => client.whatsapp.disconnect(NUMBER),
    'POST',
    '/v1/whatsapp/numbers/%2B14155550199/disconnect',
  ],
  [
    'whatsapp.delete',
    () => client.whatsapp.delete(NUMBER),
    'DELETE',
    '/v1/whatsapp/numbers/%2B14155550199',
  ],
  [
    'whatsapp.check',
    () => client.whatsapp.check(NUMBER, { phone: '+14155550100' }),
    'GET',
    '/v1/whatsapp/numbers/%2B14155550199/check?phone=%2B14155550100',
  ],
  [
    'whatsapp.signupCodes',
    () => client.whatsapp.signupCodes(NUMBER),
    'GET',
    '/v1/whatsapp/numbers/%2B14155550199/signup-codes',
  ],
  [
    'sandbox.inboundMessage',
    () => client.sandbox.inboundMessage({ channel: 'sms', from: NUMBER, to: NUMBER, text: 'Hi' }),
    'POST',
    '/v1/sandbox/inbound-messages',
    { channel: 'sms', from: NUMBER, to: NUMBER, text: 'Hi' },
  ],
  [
    'sandbox.reaction',
    () =>
      client.sandbox.reaction({
        channel: 'imessage',
        from: NUMBER,
        to: NUMBER,
        messageId: MSG,
        type: 'love',
      }),
    'POST',
    '/v1/sandbox/reactions',
    { channel: 'imessage', from: NUMBER, to: NUMBER, messageId: MSG, type: 'love' },
  ],
  [
    'sandbox.typing',
    () => client.sandbox.typing({ channel: 'whatsapp', from: NUMBER, to: NUMBER, status: 'stop' }),
    'POST',
    '/v1/sandbox/typing',
    { channel: 'whatsapp', from: NUMBER, to: NUMBER, status: 'stop' },
  ],
  [
    'sandbox.messageStatus',
    () => client.sandbox.messageStatus(MSG, { status: 'read' }),
    'POST',
    `/v1/sandbox/messages/${MSG}/status`,
    { status: 'read' },
  ],
  [
    'sandbox.audioKept',
    () => client.sandbox.audioKept({ from: NUMBER, to: NUMBER, targetExternalId: 'x' }),
    'POST',
    '/v1/sandbox/audio-kept',
    { from: NUMBER, to: NUMBER, targetExternalId: 'x' },
  ],
  [
    'sandbox.chatEvent',
    () => client.sandbox.chatEvent(CHAT, { action: 'photo.changed', actor: NUMBER }),
    'POST',
    `/v1/sandbox/chats/${CHAT_PATH}/events`,
    { action: 'photo.changed', actor: NUMBER },
  ],
  [
    'sandbox.faceTimeCall',
    () => client.sandbox.faceTimeCall({ caller: NUMBER, to: NUMBER }),
    'POST',
    '/v1/sandbox/facetime/calls',
    { caller: NUMBER, to: NUMBER },
  ],
  [
    'sandbox.faceTimeStatus',
    () => client.sandbox.faceTimeStatus('CALL-1', { status: 'missed' }),
    'POST',
    '/v1/sandbox/facetime/calls/CALL-1/status',
    { status: 'missed' },
  ],
  [
    'sandbox.whatsappScanQr',
    () => client.sandbox.whatsappScanQr(NUMBER),
    'POST',
    '/v1/sandbox/whatsapp/numbers/%2B14155550199/scan',
  ],
  [
    'sandbox.whatsappEnterPairingCode',
    () => client.sandbox.whatsappEnterPairingCode(NUMBER, { code: 'K7QJ-3M2P' }),
    'POST',
    '/v1/sandbox/whatsapp/numbers/%2B14155550199/pairing-code',
    { code: 'K7QJ-3M2P' },
  ],
  [
    'sandbox.whatsappDropConnection',
    () => client.sandbox.whatsappDropConnection(NUMBER),
    'POST',
    '/v1/sandbox/whatsapp/numbers/%2B14155550199/drop',
  ],
  [
    'sandbox.whatsappDropConnection with a reason',
    () => client.sandbox.whatsappDropConnection(NUMBER, { reason: 'logged_out' }),
    'POST',
    '/v1/sandbox/whatsapp/numbers/%2B14155550199/drop',
    { reason: 'logged_out' },
  ],
  [
    'sandbox.whatsappResolveLid',
    () => client.sandbox.whatsappResolveLid(NUMBER, { lid: '1@lid', phone: NUMBER }),
    'POST',
    '/v1/sandbox/whatsapp/numbers/%2B14155550199/lid-resolutions',
    { lid: '1@lid', phone: NUMBER },
  ],
  [
    'sandbox.setInstanceHealth',
    () => client.sandbox.setInstanceHealth(NUMBER, { status: 'healthy' }),
    'POST',
    '/v1/sandbox/numbers/%2B14155550199/health',
    { status: 'healthy' },
  ],
];

describe('every resource method reaches its contract route', () => {
  it.each(calls)('%s', async (_name, call, method, url, body) => {
    const before = server.requests.length;
    await call();
    const request = server.requests[before];
    expect(request?.method).toBe(method);
    expect(request?.url).toBe(url);
    expect(request?.headers.authorization).toBe('Bearer sk_test');
    if (body === undefined) expect(request?.body).toBe('');
    else expect(JSON.parse(request?.body ?? '')).toEqual(body);
  });
});

describe('attachments.download', () => {
  const SIGNATURE = 'ab'.repeat(32);

  it('sends no API key to the client’s baseUrl, whatever host the URL names', async () => {
    const before = server.requests.length;
    const downloaded = await client.attachments.download(
      `https://files.example.com/v1/attachments/att_1?expires=1795258800&signature=${SIGNATURE}`,
    );
    const request = server.requests[before];
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(`/v1/attachments/att_1?expires=1795258800&signature=${SIGNATURE}`);
    expect(request?.headers.authorization).toBeUndefined();
    // The UTF-8 file name wins over the ASCII fallback.
    expect(downloaded).toEqual({
      data: Uint8Array.from([0x89, 0x50, 0x4e, 0x47]),
      contentType: 'image/png',
      filename: 'café.png',
    });
    expect(client.lastRequestId).toBe('req_download');
  });

  it('accepts a URL object, a relative URL and the URL’s parts', async () => {
    const before = server.requests.length;
    await client.attachments.download(
      new URL(`http://127.0.0.1:0/v1/attachments/att%3A2?expires=5&signature=${SIGNATURE}`),
    );
    await client.attachments.download(`/v1/attachments/att_3?signature=${SIGNATURE}&expires=6`);
    await client.attachments.download({ id: 'att_4', expires: 7, signature: SIGNATURE });
    expect(server.requests.slice(before).map((r) => r.url)).toEqual([
      `/v1/attachments/att%3A2?expires=5&signature=${SIGNATURE}`,
      `/v1/attachments/att_3?expires=6&signature=${SIGNATURE}`,
      `/v1/attachments/att_4?expires=7&signature=${SIGNATURE}`,
    ]);
  });

  it('refuses a URL without its signature before sending anything', async () => {
    const before = server.requests.length;
    await expect(client.attachments.download('/v1/attachments/att_5?expires=1')).rejects.toThrow(
      /Not an attachment download URL/,
    );
    expect(server.requests.length).toBe(before);
  });
});
