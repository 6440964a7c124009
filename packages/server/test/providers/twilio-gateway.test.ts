import type { Instance, Message, OptOutList, SwitchboardEvent } from '@switchboard/contract';
import { startLoopbackReceiver } from '@switchboard/testing';
import { FakeTwilio, signTwilioCall } from '@switchboard/testing/twilio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  adminHeaders,
  adminPost,
  assignNumber,
  createCustomerWithKey,
} from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildListeningApp } from '../support/listening-app';
import { recordedEvents } from '../support/simulator-app';
import { bearer, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const NUMBER = '+14155550100';
const CONTACT = '+14155550111';
const LANDLINE = '+14155550122';

interface TwilioWorld {
  t: TestApp;
  fake: FakeTwilio;
  instance: Instance;
  customerId: string;
  key: string;
  events: SwitchboardEvent[];
}

/** The gateway on a real port with a Twilio instance on the fake, and a customer with a number. */
async function twilioWorld(
  settings: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<TwilioWorld> {
  const fake = new FakeTwilio({ stepMs: 5 });
  await fake.start();
  const { t } = await buildListeningApp({
    REACHABILITY_BUDGET_MS: '2000',
    PROVIDER_RETRY_BASE_MS: '50',
    PROVIDER_HTTP_TIMEOUT_MS: '300',
    ...env,
  });
  const instance = await adminPost<Instance>(t.app, '/admin/v1/instances', {
    name: 'twilio',
    provider: 'twilio',
    channels: ['sms'],
    config: {
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiBaseUrl: fake.baseUrl,
      lookupBaseUrl: fake.baseUrl,
      pacing: { perSecond: 0, concurrency: 4 },
    },
  });
  fake.addNumber(NUMBER, instance.ingressUrl);
  const customer = await adminPost<{ id: string }>(t.app, '/admin/v1/customers', {
    name: 'Acme',
    ...(Object.keys(settings).length ? { settings } : {}),
  });
  const apiKey = await adminPost<{ key: string }>(
    t.app,
    `/admin/v1/customers/${customer.id}/api-keys`,
  );
  await assignNumber(t.app, customer.id, {
    phoneNumber: NUMBER,
    instanceId: instance.id,
    isDefault: true,
  });
  const events = recordedEvents(t.app, customer.id);
  return { t, fake, instance, customerId: customer.id, key: apiKey.key, events };
}

/** A 1×1 PNG, served where a test needs `content.mediaUrls` that really are images. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('SMS and MMS through the Twilio adapter and the fake Twilio, end to end', () => {
  let w: TwilioWorld;

  const send = (payload: Record<string, unknown>) =>
    w.t.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: bearer(w.key),
      payload: { routing: { preference: ['sms'] }, ...payload },
    });
  const message = async (id: string) =>
    expectSuccess<Message>(
      await w.t.app.inject({ method: 'GET', url: `/v1/messages/${id}`, headers: bearer(w.key) }),
    );
  const settled = (id: string, status: Message['status']) =>
    waitFor(
      async () => {
        const current = await message(id);
        return current.status === status ? current : undefined;
      },
      8_000,
      `${id} ${status}`,
    );
  const typesOf = (id: string) =>
    w.events
      .filter((event) => 'data' in event && (event.data as { messageId?: string }).messageId === id)
      .map((event) => event.type);

  beforeEach(async () => {
    w = await twilioWorld();
  });

  /** Closes what a test started beside the world. */
  const after: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const close of after.splice(0)) await close();
    await w.t.close();
    await w.fake.stop();
  });

  it('sends an SMS: queued → sent → delivered from signed status callbacks, with its segments', async () => {
    const accepted = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'x'.repeat(200) } }),
      202,
    );
    await settled(accepted.id, 'delivered');
    // The segments are recorded with the accepted send, which Twilio's callbacks can precede.
    const delivered = await waitFor(
      async () => {
        const current = await message(accepted.id);
        return current.segments === undefined ? undefined : current;
      },
      8_000,
      `${accepted.id} segments`,
    );
    expect(delivered).toMatchObject({ status: 'delivered', channel: 'sms', segments: 2 });
    expect(delivered.externalId).toBe(w.fake.sent()[0]?.sid);
    expect(typesOf(accepted.id)).toEqual(['message.queued', 'message.sent', 'message.delivered']);
    const create = w.fake.requests.find((r) => r.method === 'POST');
    const callback = create?.form.find(([name]) => name === 'StatusCallback')?.[1];
    expect(callback?.startsWith(w.instance.ingressUrl)).toBe(true);
  });

  it('sends 12 media URLs as two Twilio messages of one Switchboard message', async () => {
    const urls = Array.from({ length: 12 }, (_, i) => `https://cdn.example.com/${i}.jpg`);
    const accepted = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'album', mediaUrls: urls } }),
      202,
    );
    await settled(accepted.id, 'delivered');
    expect(w.fake.sent().map((m) => m.extra.mediaUrls.length)).toEqual([10, 2]);
    expect(typesOf(accepted.id).filter((type) => type === 'message.delivered')).toHaveLength(1);
  });

  it('applies a part’s callbacks once the send has recorded its parts, however early they come', async () => {
    w.fake.fetchMedia = true;
    // The second part is created 250 ms after the first, whose callbacks arrive meanwhile.
    w.fake.faults = { slowCreates: { count: 1, delayMs: 250, skip: 1 } };
    // Ten images (mediaUrls are checked as images by their bytes), then one that is gone.
    const images = await startLoopbackReceiver((request, response) => {
      if (request.path.endsWith('/gone.png')) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1PX);
    });
    after.push(() => images.close());
    const urls = Array.from({ length: 10 }, (_, i) => `${images.origin}/photo-${i}.png`);
    const accepted = expectSuccess<{ id: string }>(
      await send({
        to: CONTACT,
        content: { text: 'album', mediaUrls: [...urls, `${images.origin}/gone.png`] },
      }),
      202,
    );
    const failed = await settled(accepted.id, 'failed');
    expect(failed.errorMessage).toContain('Part 2 of 2');
    const statuses = () => w.fake.sent().map((m) => m.status);
    await waitFor(() => (statuses().join() === 'delivered,failed' ? true : undefined), 8_000);
    await w.fake.settled();
    // The first part's delivery alone never made the message delivered (whether its `sent`
    // came before the second part's failure depends on which media fetch finished first).
    const types = typesOf(accepted.id).filter((type) => type !== 'message.sent');
    expect(types).toEqual(['message.queued', 'message.failed']);
  });

  it('sends uploaded files through signed public URLs that Twilio fetches without an API key', async () => {
    w.fake.fetchMedia = true;
    const pdf = Buffer.from('%PDF-1.4 invoice');
    const accepted = expectSuccess<{ id: string }>(
      await send({
        to: CONTACT,
        content: { text: 'Your invoice' },
        attachments: [
          {
            type: 'base64',
            data: pdf.toString('base64'),
            mimeType: 'application/pdf',
            filename: 'invoice.pdf',
          },
        ],
      }),
      202,
    );
    await settled(accepted.id, 'delivered');
    const [url] = w.fake.sent()[0]?.extra.mediaUrls ?? [];
    expect(url?.startsWith(`${w.t.config.publicBaseUrl}/v1/attachments/`)).toBe(true);
    expect(Buffer.from(w.fake.fetchedMedia.get(url ?? '')?.data ?? [])).toEqual(pdf);
  });

  it('fails the message when Twilio cannot fetch its media (11200)', async () => {
    w.fake.fetchMedia = true;
    const accepted = expectSuccess<{ id: string }>(
      await send({
        to: CONTACT,
        content: { mediaUrls: [`${w.t.config.publicBaseUrl}/missing.png`] },
      }),
      202,
    );
    const failed = await settled(accepted.id, 'failed');
    expect(failed.errorMessage).toContain('11200');
  });

  it('receives an MMS: the media downloaded with the account credentials and served signed', async () => {
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    const answer = await w.fake.inbound({
      from: CONTACT,
      to: NUMBER,
      body: 'look',
      media: [{ contentType: 'image/png', data: png }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<Response>');
    const inbound = await waitFor(() => w.events.find((e) => e.type === 'message.inbound'));
    const data = inbound.data as {
      text: string;
      attachments: { downloadUrl?: string; mimeType: string }[];
    };
    expect(data.text).toBe('look');
    expect(data.attachments[0]?.mimeType).toBe('image/png');
    const download = data.attachments[0]?.downloadUrl ?? '';
    const file = await w.t.app.inject({
      method: 'GET',
      url: new URL(download).pathname + new URL(download).search,
    });
    expect(new Uint8Array(file.rawPayload)).toEqual(png);
    // Twilio repeats the call: nothing new is recorded.
    await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'look', sid: answer.message.sid });
    await w.fake.settled();
    expect(w.events.filter((e) => e.type === 'message.inbound')).toHaveLength(1);
  });

  it('refuses a callback with a bad signature at the ingress with 403 and records nothing', async () => {
    const params: [string, string][] = [
      ['MessageSid', `SM${'f'.repeat(32)}`],
      ['SmsStatus', 'received'],
      ['From', CONTACT],
      ['To', NUMBER],
      ['Body', 'forged'],
    ];
    const response = await fetch(w.instance.ingressUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signTwilioCall('not-the-token', w.instance.ingressUrl, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(response.status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(w.events).toHaveLength(0);
  });

  it('fails a message with the carrier’s reason (30006) as errorCode and errorMessage', async () => {
    w.fake.recipients.set(LANDLINE, { outcome: 'undelivered', errorCode: 30006 });
    const accepted = expectSuccess<{ id: string }>(
      await send({ to: LANDLINE, content: { text: 'hi' } }),
      202,
    );
    const failed = await settled(accepted.id, 'failed');
    expect(failed.errorCode).toBe('NO_CHANNEL_AVAILABLE');
    expect(failed.errorMessage).toContain('30006');
  });

  it('keeps callbacks that arrive out of order and twice to one event per status', async () => {
    w.fake.faults = { outOfOrder: true, duplicateCallbacks: true };
    const accepted = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'hi' } }),
      202,
    );
    await settled(accepted.id, 'delivered');
    await w.fake.settled();
    expect(typesOf(accepted.id)).toEqual(['message.queued', 'message.sent', 'message.delivered']);
  });

  it('sends once when Twilio answers late although it created the message, or 503 before creating it', async () => {
    w.fake.faults = { slowCreates: { count: 1, delayMs: 800 } };
    const slow = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'slow' } }),
      202,
    );
    await settled(slow.id, 'delivered');
    w.fake.faults = { serverErrors: { count: 2, status: 503 }, rateLimited: { count: 1 } };
    const retried = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'retried' } }),
      202,
    );
    await settled(retried.id, 'delivered');
    expect(
      w.fake
        .sent()
        .map((m) => m.body)
        .sort(),
    ).toEqual(['retried', 'slow']);
  });

  it('STOP opts the contact out: listed, sends refused with 403 on every channel, START opts back in', async () => {
    await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'Stop' });
    const out = await waitFor(() => w.events.find((e) => e.type === 'contact.opted_out'));
    expect(out.data).toEqual({
      from: NUMBER,
      recipient: CONTACT,
      status: 'opted_out',
      source: 'keyword',
      keyword: 'STOP',
      channel: 'sms',
    });
    const list = expectSuccess<OptOutList>(
      await w.t.app.inject({ method: 'GET', url: '/v1/opt-outs', headers: bearer(w.key) }),
    );
    expect(list.optOuts).toMatchObject([{ from: NUMBER, recipient: CONTACT, status: 'opted_out' }]);
    for (const preference of [['sms'], ['imessage', 'sms'], ['whatsapp']]) {
      expectFailure(
        await send({ to: CONTACT, content: { text: 'promo' }, routing: { preference } }),
        403,
        'RECIPIENT_OPTED_OUT',
      );
    }
    await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'START' });
    await waitFor(() => w.events.find((e) => e.type === 'contact.opted_in'));
    const accepted = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'welcome back' } }),
      202,
    );
    await settled(accepted.id, 'delivered');
    const operator = expectSuccess<OptOutList>(
      await w.t.app.inject({
        method: 'GET',
        url: `/admin/v1/customers/${w.customerId}/opt-outs?status=all`,
        headers: adminHeaders,
      }),
    );
    expect(operator.optOuts).toMatchObject([
      { recipient: CONTACT, status: 'opted_in', keyword: 'START' },
    ]);
  });

  it('honours Twilio’s default keywords REVOKE and YES, and Advanced Opt-Out’s OptOutType for its own keywords', async () => {
    const changes = () =>
      w.events
        .filter((e) => e.type === 'contact.opted_out' || e.type === 'contact.opted_in')
        .map((e) => [e.type, (e.data as { keyword: string }).keyword]);
    await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'revoke' });
    await waitFor(() => (changes().length === 1 ? true : undefined));
    expectFailure(
      await send({ to: CONTACT, content: { text: 'promo' } }),
      403,
      'RECIPIENT_OPTED_OUT',
    );
    await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'Yes' });
    await waitFor(() => (changes().length === 2 ? true : undefined));
    // A Messaging Service's Advanced Opt-Out: its own words, read by Twilio as OptOutType.
    w.fake.advancedOptOut = {
      stop: ['STOP', 'ARRET'],
      start: ['START', 'REPRENDRE'],
      help: ['HELP'],
    };
    await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'Arret' });
    await waitFor(() => (changes().length === 3 ? true : undefined));
    expectFailure(
      await send({ to: CONTACT, content: { text: 'promo' } }),
      403,
      'RECIPIENT_OPTED_OUT',
    );
    await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'reprendre' });
    await waitFor(() => (changes().length === 4 ? true : undefined));
    expect(changes()).toEqual([
      ['contact.opted_out', 'REVOKE'],
      ['contact.opted_in', 'YES'],
      ['contact.opted_out', 'ARRET'],
      ['contact.opted_in', 'REPRENDRE'],
    ]);
    const accepted = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'welcome back' } }),
      202,
    );
    await settled(accepted.id, 'delivered');
  });

  it('records an opt-out Twilio reports (21610) and refuses the next send at the request', async () => {
    w.fake.optOuts.add(`${NUMBER}|${CONTACT}`);
    const accepted = expectSuccess<{ id: string }>(
      await send({ to: CONTACT, content: { text: 'hi' } }),
      202,
    );
    const failed = await settled(accepted.id, 'failed');
    expect(failed.errorCode).toBe('RECIPIENT_OPTED_OUT');
    const out = await waitFor(() => w.events.find((e) => e.type === 'contact.opted_out'));
    expect(out.data).toMatchObject({ source: 'upstream', keyword: null, recipient: CONTACT });
    expectFailure(
      await send({ to: CONTACT, content: { text: 'again' } }),
      403,
      'RECIPIENT_OPTED_OUT',
    );
  });
});

describe('inbound messages Twilio could not hand over', () => {
  it('are taken up by the health checks, each once, with their media', async () => {
    const w = await twilioWorld({}, { INSTANCE_HEALTH_INTERVAL_MS: '100' });
    const checks = () =>
      w.fake.requests.filter((r) => r.path.includes('/IncomingPhoneNumbers.json')).length;
    try {
      // The first check starts the clock; once a second one ran, the first has finished.
      await waitFor(() => (checks() >= 2 ? true : undefined), 8_000, 'two health checks');
      const lost = await w.fake.inbound({
        from: CONTACT,
        to: NUMBER,
        body: 'sent while the gateway was away',
        media: [{ contentType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) }],
        undelivered: true,
      });
      const inbound = await waitFor(
        () => w.events.find((e) => e.type === 'message.inbound'),
        8_000,
        'the caught-up message',
      );
      const data = inbound.data as { text: string; attachments: { mimeType: string }[] };
      expect(data).toMatchObject({
        text: 'sent while the gateway was away',
        attachments: [{ mimeType: 'image/png' }],
      });
      const after = checks();
      await waitFor(() => (checks() >= after + 3 ? true : undefined), 8_000, 'three more checks');
      expect(w.events.filter((e) => e.type === 'message.inbound')).toHaveLength(1);
      const listed = expectSuccess<{ messages: Message[] }>(
        await w.t.app.inject({ method: 'GET', url: '/v1/messages', headers: bearer(w.key) }),
      );
      expect(listed.messages.filter((m) => m.externalId === lost.message.sid)).toHaveLength(1);
    } finally {
      await w.t.close();
      await w.fake.stop();
    }
  });
});

describe('opt-outs enforced upstream (optOutHandling: upstream)', () => {
  it('hands sends on and lets Twilio refuse them, still recording the ledger', async () => {
    const w = await twilioWorld({ optOutHandling: 'upstream' });
    try {
      await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'STOP' });
      await waitFor(() => w.events.find((e) => e.type === 'contact.opted_out'));
      const accepted = expectSuccess<{ id: string }>(
        await w.t.app.inject({
          method: 'POST',
          url: '/v1/messages',
          headers: bearer(w.key),
          payload: { to: CONTACT, content: { text: 'hi' }, routing: { preference: ['sms'] } },
        }),
        202,
      );
      const failed = await waitFor(async () => {
        const current = expectSuccess<Message>(
          await w.t.app.inject({
            method: 'GET',
            url: `/v1/messages/${accepted.id}`,
            headers: bearer(w.key),
          }),
        );
        return current.status === 'failed' ? current : undefined;
      }, 8_000);
      expect(failed.errorCode).toBe('RECIPIENT_OPTED_OUT');
      expect(w.fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await w.t.close();
      await w.fake.stop();
    }
  });

  it('refuses a customer-scoped opt-out listing to other customers', async () => {
    const w = await twilioWorld();
    try {
      await w.fake.inbound({ from: CONTACT, to: NUMBER, body: 'STOP' });
      await waitFor(() => w.events.find((e) => e.type === 'contact.opted_out'));
      const other = await createCustomerWithKey(w.t.app, 'Other');
      const list = expectSuccess<OptOutList>(
        await w.t.app.inject({ method: 'GET', url: '/v1/opt-outs', headers: bearer(other.key) }),
      );
      expect(list.optOuts).toEqual([]);
      expectFailure(
        await w.t.app.inject({
          method: 'GET',
          url: '/v1/opt-outs?cursor=bogus',
          headers: bearer(w.key),
        }),
        400,
        'VALIDATION_ERROR',
      );
    } finally {
      await w.t.close();
      await w.fake.stop();
    }
  });
});

describe('iMessage on one instance, SMS through Twilio: a number with channelInstances', () => {
  let w: TwilioWorld;
  let simulator: Instance;
  const MIXED = '+14155550199';

  beforeEach(async () => {
    w = await twilioWorld();
    simulator = expectSuccess<Instance>(
      await w.t.app.inject({
        method: 'POST',
        url: '/admin/v1/instances',
        headers: adminHeaders,
        payload: {
          name: 'mac',
          provider: 'simulator',
          channels: ['imessage'],
          config: { stepMs: 0 },
        },
      }),
      201,
    );
    const assigned = expectSuccess<{ channelInstances: Record<string, string> }>(
      await w.t.app.inject({
        method: 'POST',
        url: `/admin/v1/customers/${w.customerId}/numbers`,
        headers: adminHeaders,
        payload: {
          phoneNumber: MIXED,
          instanceId: simulator.id,
          channelInstances: { sms: w.instance.id },
        },
      }),
      201,
    );
    expect(assigned.channelInstances).toEqual({ sms: w.instance.id });
    w.fake.addNumber(MIXED, w.instance.ingressUrl);
  });

  afterEach(async () => {
    await w.t.close();
    await w.fake.stop();
  });

  const sendFrom = (to: string) =>
    w.t.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: bearer(w.key),
      payload: { from: MIXED, to, content: { text: 'Your table is ready' } },
    });
  const settledMessage = (id: string) =>
    waitFor(async () => {
      const current = expectSuccess<Message>(
        await w.t.app.inject({ method: 'GET', url: `/v1/messages/${id}`, headers: bearer(w.key) }),
      );
      return current.status === 'delivered' ||
        current.status === 'read' ||
        current.status === 'failed'
        ? current
        : undefined;
    }, 8_000);

  it('falls back from iMessage (unreachable) to SMS sent by Twilio, with the spec’s events', async () => {
    const accepted = expectSuccess<{ id: string }>(await sendFrom('+14155550110'), 202);
    const done = await settledMessage(accepted.id);
    expect(done).toMatchObject({ status: 'delivered', channel: 'sms' });
    expect(done.externalId).toBe(w.fake.sent()[0]?.sid);
    expect(w.fake.sent()).toHaveLength(1);
    expect(w.fake.sent()[0]).toMatchObject({ from: MIXED, to: '+14155550110' });
    const types = w.events
      .filter((e) => 'data' in e && (e.data as { messageId?: string }).messageId === accepted.id)
      .map((e) => e.type);
    expect(types).toEqual([
      'message.queued',
      'message.fallback',
      'message.sent',
      'message.delivered',
    ]);
  });

  it('falls back after a failed iMessage attempt, and keeps iMessage recipients on the Mac', async () => {
    const failedOver = expectSuccess<{ id: string }>(await sendFrom('+14155550120'), 202);
    expect(await settledMessage(failedOver.id)).toMatchObject({
      status: 'delivered',
      channel: 'sms',
    });
    const onIMessage = expectSuccess<{ id: string }>(await sendFrom('+14155550101'), 202);
    expect((await settledMessage(onIMessage.id)).channel).toBe('imessage');
    expect(w.fake.sent()).toHaveLength(1);
  });

  it('routes an inbound SMS to the number through its Twilio instance to the customer', async () => {
    await w.fake.inbound({ from: '+14155550110', to: MIXED, body: 'on my way' });
    const inbound = await waitFor(() => w.events.find((e) => e.type === 'message.inbound'));
    expect(inbound.data).toMatchObject({
      from: '+14155550110',
      to: MIXED,
      text: 'on my way',
      channel: 'sms',
    });
  });

  it('refuses a channelInstances entry whose instance does not serve that channel', async () => {
    expectFailure(
      await w.t.app.inject({
        method: 'POST',
        url: `/admin/v1/customers/${w.customerId}/numbers`,
        headers: adminHeaders,
        payload: {
          phoneNumber: '+14155550198',
          instanceId: w.instance.id,
          channelInstances: { imessage: w.instance.id },
        },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('keeps the number while its SMS instance is deleted with force, serving iMessage only', async () => {
    const refused = await w.t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/instances/${w.instance.id}`,
      headers: adminHeaders,
    });
    expect(refused.statusCode).toBe(409);
    const forced = await w.t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/instances/${w.instance.id}?force=true`,
      headers: adminHeaders,
    });
    expect(forced.statusCode).toBe(200);
    const numbers = expectSuccess<{ phoneNumber: string; channelInstances: object }[]>(
      await w.t.app.inject({
        method: 'GET',
        url: `/admin/v1/customers/${w.customerId}/numbers`,
        headers: adminHeaders,
      }),
    );
    expect(numbers.find((n) => n.phoneNumber === MIXED)?.channelInstances).toEqual({});
  });
});
