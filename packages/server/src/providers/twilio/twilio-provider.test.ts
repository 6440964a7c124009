import { randomUUID } from 'node:crypto';
import type { MessagingProvider, ProviderSendRequest } from '@switchboard/provider-kit';
import {
  isProviderError,
  MemoryProviderLeases,
  MemoryProviderStateStore,
} from '@switchboard/provider-kit';
import {
  describeProviderConformance,
  type IngressRelay,
  ProviderEventRecorder,
  startIngressRelay,
  startWithRecorder,
} from '@switchboard/testing';
import { FakeTwilio, signTwilioCall } from '@switchboard/testing/twilio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TwilioProvider, type TwilioProviderOptions } from './twilio-provider';

const FROM = '+14155550100';
const DELIVERABLE = '+14155550111';
const LANDLINE = '+14155550122';
const UNREACHABLE_HANDSET = '+14155550133';

/** A fake Twilio with one number, and an ingress relay to whichever provider is current. */
async function world(overrides: Partial<TwilioProviderOptions> = {}) {
  const fake = new FakeTwilio({ stepMs: 5 });
  await fake.start();
  let current: MessagingProvider | undefined;
  const relay: IngressRelay = await startIngressRelay(() => current);
  fake.addNumber(FROM, relay.url);
  fake.recipients.set(LANDLINE, { lineType: 'landline', outcome: 'undelivered', errorCode: 30006 });
  fake.recipients.set(UNREACHABLE_HANDSET, { outcome: 'undelivered', errorCode: 30003 });
  const create = (more: Partial<TwilioProviderOptions> = {}) => {
    current = new TwilioProvider({
      instanceName: 'twilio-test',
      credentials: {
        accountSid: fake.accountSid,
        username: fake.accountSid,
        password: fake.authToken,
      },
      authToken: fake.authToken,
      apiBaseUrl: fake.baseUrl,
      lookupBaseUrl: fake.baseUrl,
      lookup: false,
      timeoutMs: 2_000,
      ...overrides,
      ...more,
    });
    return current;
  };
  return {
    fake,
    relay,
    create,
    cleanup: async () => {
      await relay.close();
      await fake.stop();
    },
  };
}

/** A call the fake Twilio would make to the relay, signed with `token`. */
function call(relay: IngressRelay, token: string, params: [string, string][], url = relay.url) {
  return {
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signTwilioCall(token, url, params),
    },
    rawBody: Buffer.from(new URLSearchParams(params).toString()),
  };
}

function inboundParams(sid: string, from: string, body: string): [string, string][] {
  return [
    ['MessageSid', sid],
    ['SmsSid', sid],
    ['SmsStatus', 'received'],
    ['From', from],
    ['To', FROM],
    ['Body', body],
    ['NumMedia', '0'],
    ['AccountSid', 'AC0'],
    ['ApiVersion', '2010-04-01'],
  ];
}

function sendRequest(overrides: Partial<ProviderSendRequest> = {}): ProviderSendRequest {
  const messageId = `msg_${randomUUID()}`;
  return {
    channel: 'sms',
    from: FROM,
    to: { type: 'address', address: DELIVERABLE },
    messageId,
    attempt: 0,
    attemptId: `${messageId}:0:sms`,
    text: 'Hello from Switchboard',
    ...overrides,
  };
}

let relayRef: IngressRelay | undefined;
let tokenRef = '';
let currentFake: FakeTwilio | undefined;

describeProviderConformance({
  name: 'twilio (fake Twilio)',
  channel: 'sms',
  from: FROM,
  create: async () => {
    const setup = await world();
    relayRef = setup.relay;
    tokenRef = setup.fake.authToken;
    currentFake = setup.fake;
    return { provider: setup.create(), cleanup: setup.cleanup, webhookUrl: setup.relay.url };
  },
  recipients: {
    deliverable: DELIVERABLE,
    unreachable: 'someone@example.com',
    failing: UNREACHABLE_HANDSET,
  },
  lifecycle: ['sent', 'delivered'],
  supports: { edit: false, unsend: false, react: false, typing: false, groups: false },
  ingress: {
    inbound: ({ id, from, text }) => {
      if (!relayRef) throw new Error('no relay');
      return call(relayRef, tokenRef, inboundParams(id, from, text));
    },
    forged: ({ id, from, text }) => {
      if (!relayRef) throw new Error('no relay');
      return call(relayRef, 'not-the-auth-token', inboundParams(id, from, text));
    },
    status: ({ externalId, status }) => {
      if (!relayRef) throw new Error('no relay');
      return call(relayRef, tokenRef, [
        ['MessageSid', externalId],
        ['MessageStatus', status],
        ['SmsSid', externalId],
        ['SmsStatus', status],
        ['To', DELIVERABLE],
        ['From', FROM],
      ]);
    },
  },
  inbound: {
    'message.inbound': async (_provider, from) => {
      // The fake's own inbound call, through the relay, with a photo hosted behind Basic auth.
      await currentFake?.inbound({
        from,
        to: FROM,
        body: 'with a photo',
        media: [{ contentType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) }],
      });
    },
  },
});

describe('the Twilio adapter against the fake Twilio', () => {
  let setup: Awaited<ReturnType<typeof world>>;
  let provider: TwilioProvider;
  let recorder: ProviderEventRecorder;
  let state: MemoryProviderStateStore;

  const startProvider = async (options: Partial<TwilioProviderOptions> = {}) => {
    provider = setup.create(options) as TwilioProvider;
    state = new MemoryProviderStateStore();
    ({ recorder } = await startWithRecorder(
      provider,
      new ProviderEventRecorder(),
      state,
      setup.relay.url,
    ));
  };

  beforeEach(async () => {
    setup = await world();
    currentFake = setup.fake;
    await startProvider();
  });

  afterEach(async () => {
    await provider.stop();
    await setup.cleanup();
  });

  it('posts the form Twilio documents: To, From, Body, repeated MediaUrl, a StatusCallback naming the attempt', async () => {
    const request = sendRequest({
      mediaUrls: ['https://cdn.example.com/1.png', 'https://cdn.example.com/2.png'],
    });
    const result = await provider.send(request);
    expect(result.externalId).toMatch(/^MM[0-9a-f]{32}$/);
    const create = setup.fake.requests.find((r) => r.method === 'POST');
    expect(create?.form).toEqual([
      ['To', DELIVERABLE],
      ['From', FROM],
      ['Body', 'Hello from Switchboard'],
      ['MediaUrl', 'https://cdn.example.com/1.png'],
      ['MediaUrl', 'https://cdn.example.com/2.png'],
      [
        'StatusCallback',
        `${setup.relay.url}?attempt=${encodeURIComponent(request.attemptId)}#rc=3&rp=all`,
      ],
    ]);
    const delivered = await recorder.waitForStatus(result.externalId, 'delivered');
    expect(delivered).toMatchObject({ attemptId: request.attemptId });
  });

  it('sends through a Messaging Service instead of a From number when configured', async () => {
    await provider.stop();
    const service = `MG${'a'.repeat(32)}`;
    setup.fake.services.set(service, [FROM]);
    await startProvider({ messagingServiceSid: service });
    const { externalId } = await provider.send(sendRequest());
    const create = setup.fake.requests.find((r) => r.method === 'POST');
    expect(create?.form).toContainEqual(['MessagingServiceSid', service]);
    expect(create?.form.some(([name]) => name === 'From')).toBe(false);
    await recorder.waitForStatus(externalId, 'delivered');
  });

  it('splits 12 media URLs into two Twilio messages of one send, the text with the first', async () => {
    const urls = Array.from({ length: 12 }, (_, i) => `https://cdn.example.com/${i}.jpg`);
    const result = await provider.send(sendRequest({ mediaUrls: urls }));
    expect(result.parts).toHaveLength(2);
    const sent = setup.fake.sent();
    expect(sent.map((m) => m.extra.mediaUrls.length)).toEqual([10, 2]);
    expect(sent.map((m) => m.body)).toEqual(['Hello from Switchboard', '']);
    expect(result.parts?.map((p) => p.kind)).toEqual(['text', 'attachment']);
  });

  it('sends each attachment as an MMS of its own, uploaded bytes through their signed public URL', async () => {
    const result = await provider.send(
      sendRequest({
        attachments: [
          {
            source: { kind: 'bytes', data: new Uint8Array([1, 2, 3]) },
            mimeType: 'application/pdf',
            publicUrl: 'https://gw.example.com/v1/attachments/media_x_0?expires=1&signature=s',
          },
          { source: { kind: 'url', url: 'https://cdn.example.com/b.png' }, mimeType: 'image/png' },
        ],
      }),
    );
    expect(result.parts).toHaveLength(2);
    expect(setup.fake.sent().map((m) => m.extra.mediaUrls)).toEqual([
      ['https://gw.example.com/v1/attachments/media_x_0?expires=1&signature=s'],
      ['https://cdn.example.com/b.png'],
    ]);
  });

  it('maps Twilio errors onto spec codes, with the Twilio code kept', async () => {
    const invalid = await provider
      .send(sendRequest({ to: { type: 'address', address: '+1555' } }))
      .catch((e) => e);
    expect(isProviderError(invalid) && invalid.code).toBe('NO_CHANNEL_AVAILABLE');
    setup.fake.recipients.set('+14155550144', { lineType: 'invalid' });
    const refused = await provider
      .send(sendRequest({ to: { type: 'address', address: '+14155550144' } }))
      .catch((e) => e);
    expect(isProviderError(refused) && [refused.code, refused.providerCode]).toEqual([
      'INVALID_PHONE_NUMBER',
      '21211',
    ]);
    const tooLong = await provider.send(sendRequest({ text: 'x'.repeat(1601) })).catch((e) => e);
    expect(isProviderError(tooLong) && [tooLong.code, tooLong.providerCode]).toEqual([
      'VALIDATION_ERROR',
      '21617',
    ]);
    expect(tooLong.message).toMatch(/1,600 characters/);
    const notOurs = await provider.send(sendRequest({ from: '+14155550177' })).catch((e) => e);
    expect(isProviderError(notOurs) && [notOurs.code, notOurs.providerCode]).toEqual([
      'IMESSAGE_SEND_FAILED',
      '21606',
    ]);
    expect(notOurs.message).toMatch(/not an SMS-capable number of this Twilio account/);
  });

  it('fails a message carriers block for an unverified toll-free (30032) or unregistered 10DLC (30034) sender', async () => {
    for (const [address, code, reason] of [
      ['+14155550181', 30032, /toll-free sender number is not verified/],
      ['+14155550182', 30034, /not registered to an approved A2P 10DLC campaign/],
    ] as const) {
      setup.fake.recipients.set(address, { outcome: 'failed', errorCode: code });
      const { externalId } = await provider.send(sendRequest({ to: { type: 'address', address } }));
      const failed = await recorder.waitForStatus(externalId, 'failed');
      expect(failed).toMatchObject({
        error: { code: 'IMESSAGE_SEND_FAILED', providerCode: String(code) },
      });
      if (failed.kind !== 'message.status' || failed.status !== 'failed') throw new Error('failed');
      expect(failed.error.message).toMatch(reason);
    }
  });

  it('reports a carrier failure with the ErrorCode as the failure reason', async () => {
    const { externalId } = await provider.send(
      sendRequest({ to: { type: 'address', address: LANDLINE } }),
    );
    const failed = await recorder.waitForStatus(externalId, 'failed');
    expect(failed).toMatchObject({
      error: { code: 'NO_CHANNEL_AVAILABLE', providerCode: '30006' },
    });
  });

  it('refuses a send to a recipient who texted STOP with RECIPIENT_OPTED_OUT (21610), until START', async () => {
    await setup.fake.inbound({ from: DELIVERABLE, to: FROM, body: 'STOP' });
    const refused = await provider.send(sendRequest()).catch((e) => e);
    expect(
      isProviderError(refused) && [refused.code, refused.providerCode, refused.fallback],
    ).toEqual(['RECIPIENT_OPTED_OUT', '21610', false]);
    await setup.fake.inbound({ from: DELIVERABLE, to: FROM, body: 'START' });
    await expect(provider.send(sendRequest())).resolves.toMatchObject({
      externalId: expect.stringMatching(/^SM/),
    });
  });

  it('answers inbound messages with empty TwiML and hands over media behind Basic auth', async () => {
    const answer = await setup.fake.inbound({
      from: DELIVERABLE,
      to: FROM,
      body: 'pic',
      media: [{ contentType: 'image/jpeg', data: new Uint8Array([255, 216, 255]) }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const event = recorder.ofKind('message.inbound')[0];
    expect(event).toMatchObject({
      from: DELIVERABLE,
      to: FROM,
      text: 'pic',
      externalId: answer.message.sid,
    });
    const content = event?.attachments[0]?.content;
    if (content?.kind !== 'url') throw new Error('expected a URL attachment');
    expect((await fetch(content.url, { redirect: 'manual' })).status).toBe(401);
    const media = await fetch(content.url, { headers: content.headers ?? {} });
    expect(media.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(new Uint8Array([255, 216, 255]));
  });

  it('refuses a forged or replayed-to-another-URL callback with 403 and reports nothing', async () => {
    const params = inboundParams(`SM${'1'.repeat(32)}`, DELIVERABLE, 'hi');
    const forged = await provider.handleWebhook(call(setup.relay, 'wrong', params));
    expect(forged.status).toBe(403);
    const signedElsewhere = call(
      setup.relay,
      setup.fake.authToken,
      params,
      'https://other.example.com/x',
    );
    const moved = await provider.handleWebhook({ ...signedElsewhere, url: setup.relay.url });
    expect(moved.status).toBe(403);
    expect(recorder.events).toHaveLength(0);
  });

  it('keeps statuses per (sid, status): duplicates share an upstream id, out-of-order ones each arrive', async () => {
    setup.fake.faults = { outOfOrder: true, duplicateCallbacks: true };
    const { externalId } = await provider.send(sendRequest());
    await recorder.waitForStatus(externalId, 'sent');
    await setup.fake.settled();
    const statuses = recorder.ofKind('message.status').filter((e) => e.externalId === externalId);
    expect(statuses.map((e) => e.status)).toEqual(['delivered', 'delivered', 'sent', 'sent']);
    expect(new Set(statuses.map((e) => e.upstreamEventId))).toEqual(
      new Set([`${externalId}:delivered`, `${externalId}:sent`]),
    );
  });

  it('never sends twice: a create that timed out although Twilio made it is found, not repeated', async () => {
    await provider.stop();
    await startProvider({ timeoutMs: 200 });
    setup.fake.faults = { slowCreates: { count: 1, delayMs: 600 } };
    const request = sendRequest();
    const result = await provider.send(request);
    expect(setup.fake.sent()).toHaveLength(1);
    expect(result.externalId).toBe(setup.fake.sent()[0]?.sid);
    // Driven again (a crashed worker), the attempt answers the same message.
    await expect(provider.send(request)).resolves.toEqual(result);
    expect(setup.fake.sent()).toHaveLength(1);
  });

  it('a 500 after creating is reconciled; a 500 that created nothing is retryable and sent once later', async () => {
    setup.fake.faults = { createdThenError: { count: 1 } };
    const first = sendRequest();
    const found = await provider.send(first);
    expect(setup.fake.sent()).toHaveLength(1);
    expect(found.externalId).toBe(setup.fake.sent()[0]?.sid);

    setup.fake.faults = { serverErrors: { count: 1, status: 503 } };
    const second = sendRequest({ text: 'second' });
    const error = await provider.send(second).catch((e) => e);
    expect(isProviderError(error) && [error.code, error.retryable, error.fallback]).toEqual([
      'INTERNAL_ERROR',
      true,
      false,
    ]);
    expect(setup.fake.sent()).toHaveLength(1);
    await provider.send(second);
    await provider.send(second);
    expect(setup.fake.sent().filter((m) => m.body === 'second')).toHaveLength(1);
  });

  it('answers 429 as retryable without sending', async () => {
    setup.fake.faults = { rateLimited: { count: 1, retryAfterSeconds: 2 } };
    const error = await provider.send(sendRequest()).catch((e) => e);
    expect(isProviderError(error) && [error.retryable, error.fallback]).toEqual([true, false]);
    expect(setup.fake.sent()).toHaveLength(0);
  });

  it('keeps the send ledger in the state store: a restarted instance reconciles instead of resending', async () => {
    await provider.stop();
    await startProvider({ timeoutMs: 500 });
    const slowCreate = { count: 1, delayMs: 1_500 };
    setup.fake.faults = { slowCreates: slowCreate };
    const request = sendRequest();
    const uncertain = provider.send(request);
    // Twilio's list is refused at the moment of the timeout: the attempt stays uncertain. The
    // refusal is armed once the create has reached Twilio (not after a fixed pause, which a busy
    // host overruns), so that the create itself is not the request refused.
    const creates = () =>
      setup.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Messages.json'));
    while (creates().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    setup.fake.faults.rateLimited = { count: 1 };
    const error = await uncertain.catch((e) => e);
    expect(isProviderError(error) && [error.code, error.retryable]).toEqual([
      'PROVIDER_TIMEOUT',
      true,
    ]);
    expect(setup.fake.faults.rateLimited?.count).toBe(0);
    await setup.fake.settled();
    // The slow create has answered by now (its 1.5 s began before the 0.5 s timeout).
    await new Promise((resolve) => setTimeout(resolve, slowCreate.delayMs - 500));
    // A new provider on the same state store (a restart) finds the message instead of sending.
    const restarted = setup.create({ timeoutMs: 2_000 });
    await restarted.start({
      sink: async () => {},
      state,
      leases: new MemoryProviderLeases().holder('restarted'),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      webhookUrl: setup.relay.url,
    });
    const result = await restarted.send(request);
    expect(setup.fake.sent()).toHaveLength(1);
    expect(result.externalId).toBe(setup.fake.sent()[0]?.sid);
    await restarted.stop();
  });

  it('answers availability: every valid number without Lookup, line types with it', async () => {
    expect((await provider.checkAvailability({ address: LANDLINE })).channels).toEqual({
      sms: true,
    });
    expect(setup.fake.lookups).toBe(0);
    await provider.stop();
    await startProvider({ lookup: true });
    expect((await provider.checkAvailability({ address: LANDLINE })).channels).toEqual({
      sms: false,
    });
    expect((await provider.checkAvailability({ address: DELIVERABLE })).channels).toEqual({
      sms: true,
    });
    setup.fake.recipients.set('+14155550155', { lineType: 'pager' });
    expect((await provider.checkAvailability({ address: '+14155550155' })).channels).toEqual({
      sms: false,
    });
    expect(setup.fake.lookups).toBe(3);
    setup.fake.faults = { rateLimited: { count: 1 } };
    const degraded = await provider.checkAvailability({ address: DELIVERABLE });
    expect(degraded).toMatchObject({ channels: {}, transient: true });
  });

  it('answers "unknown", never "no", when Lookup withholds the line type (60601 for Canada, unknown)', async () => {
    await provider.stop();
    await startProvider({ lookup: true });
    const canadian = await provider.checkAvailability({ address: '+14165550123' });
    expect(canadian.channels).toEqual({});
    setup.fake.recipients.set('+14155550166', { lineType: 'unknown' });
    expect((await provider.checkAvailability({ address: '+14155550166' })).channels).toEqual({});
    setup.fake.canadianLookupApproved = true;
    expect((await provider.checkAvailability({ address: '+14165550123' })).channels).toEqual({
      sms: true,
    });
  });

  it('reports health from the account: healthy, then credentials_rejected, then upstream_unreachable', async () => {
    expect(await provider.health()).toMatchObject({ status: 'healthy', warnings: [] });
    await provider.stop();
    await startProvider({
      credentials: {
        accountSid: setup.fake.accountSid,
        username: setup.fake.accountSid,
        password: 'wrong',
      },
    });
    expect((await provider.health()).warnings.map((w) => w.code)).toEqual(['credentials_rejected']);
    await provider.stop();
    await startProvider({ apiBaseUrl: 'http://127.0.0.1:9' });
    expect((await provider.health()).warnings.map((w) => w.code)).toEqual(['upstream_unreachable']);
  });

  it('is healthy with a Standard API key, which Twilio refuses the Account resource, and sends', async () => {
    const key = `SK${'d'.repeat(32)}`;
    setup.fake.apiKeys.set(key, 'key-secret');
    await provider.stop();
    await startProvider({
      credentials: { accountSid: setup.fake.accountSid, username: key, password: 'key-secret' },
    });
    expect(await provider.health()).toMatchObject({ status: 'healthy', warnings: [] });
    const { externalId } = await provider.send(sendRequest());
    await recorder.waitForStatus(externalId, 'delivered');
  });

  it('has Twilio try a status callback again when the gateway could not record it', async () => {
    await provider.stop();
    let refused = 0;
    provider = setup.create() as TwilioProvider;
    ({ recorder } = await startWithRecorder(
      provider,
      new ProviderEventRecorder({
        hold: async (event) => {
          if (event.kind === 'message.status' && event.status === 'sent' && refused === 0) {
            refused += 1;
            throw new Error('the database is unavailable for a moment');
          }
        },
      }),
      new MemoryProviderStateStore(),
      setup.relay.url,
    ));
    const { externalId } = await provider.send(sendRequest());
    await recorder.waitForStatus(externalId, 'delivered');
    await recorder.waitForStatus(externalId, 'sent');
    await setup.fake.settled();
    expect(refused).toBe(1);
    const sentCalls = setup.fake.callbacks.filter((c) =>
      c.params.some(([k, v]) => k === 'MessageStatus' && v === 'sent'),
    );
    expect(sentCalls.map((c) => c.status)).toEqual([500, 204]);
  });

  it('takes up inbound messages whose call never arrived at the next health check', async () => {
    const ELSEWHERE = '+14155550199';
    setup.fake.addNumber(ELSEWHERE, 'https://another-app.example.com/sms');
    // The first check starts the clock: nothing from before the instance ran is taken.
    const before = await setup.fake.inbound({
      from: DELIVERABLE,
      to: FROM,
      body: 'a minute before',
      undelivered: true,
    });
    before.message.date_sent = new Date(Date.now() - 60_000).toUTCString().replace('GMT', '+0000');
    await provider.health();
    const text = await setup.fake.inbound({
      from: DELIVERABLE,
      to: FROM,
      body: 'while you were away',
      undelivered: true,
    });
    const photo = await setup.fake.inbound({
      from: DELIVERABLE,
      to: FROM,
      body: '',
      media: [{ contentType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) }],
      undelivered: true,
    });
    await setup.fake.inbound({
      from: DELIVERABLE,
      to: ELSEWHERE,
      body: 'not ours',
      undelivered: true,
    });
    expect(await provider.health()).toMatchObject({ status: 'healthy' });
    const inbound = recorder.ofKind('message.inbound');
    expect(inbound.map((event) => [event.upstreamEventId, event.text])).toEqual([
      [text.message.sid, 'while you were away'],
      [photo.message.sid, ''],
    ]);
    const [attachment] = inbound[1]?.attachments ?? [];
    expect(attachment?.mimeType).toBe('image/png');
    if (attachment?.content.kind !== 'url') throw new Error('a media URL');
    const file = await fetch(attachment.content.url, { headers: attachment.content.headers ?? {} });
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    // The next check looks again (with an overlap), the same MessageSid each time: the gateway
    // takes each once by its upstream event id.
    await provider.health();
    expect(new Set(recorder.ofKind('message.inbound').map((e) => e.upstreamEventId))).toEqual(
      new Set([text.message.sid, photo.message.sid]),
    );
  });

  it('authenticates with an API key and secret when given one', async () => {
    const key = `SK${'b'.repeat(32)}`;
    setup.fake.apiKeys.set(key, 'key-secret');
    await provider.stop();
    await startProvider({
      credentials: { accountSid: setup.fake.accountSid, username: key, password: 'key-secret' },
    });
    const { externalId } = await provider.send(sendRequest());
    await recorder.waitForStatus(externalId, 'delivered');
  });
});
