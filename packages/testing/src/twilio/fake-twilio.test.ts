import Ajv from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLoopbackReceiver } from '../loopback-receiver';
import { FakeTwilio } from './fake-twilio';
import { segmentsOf, signTwilioCall } from './fake-twilio-resources';
import excerpt from './twilio-openapi-excerpt.json' with { type: 'json' };

type Schema = { properties?: Record<string, unknown> };
const schemas = excerpt.components.schemas as Record<string, Schema>;
const ajv = new Ajv({ strict: false, validateFormats: false });
ajv.addSchema({ components: excerpt.components }, 'twilio');
const validator = (name: string) =>
  ajv.compile({ $ref: `twilio#/components/schemas/${name.replaceAll('/', '~1')}` });

/**
 * Asserts `body` matches Twilio's schema `name` and carries every property it documents.
 * `answeredNull`: properties Twilio answers `null` although the OpenAPI file types them otherwise
 * (Lookup data packages not asked for: OpenAPI 3.0 cannot mark a `$ref` nullable; a valid
 * number's `validation_errors`, null in Twilio's own examples).
 */
function expectTwilioShape(name: string, body: unknown, answeredNull: readonly string[] = []) {
  const validate = validator(name);
  const checked = Object.fromEntries(
    Object.entries(body as object).filter(([key]) => !answeredNull.includes(key)),
  );
  for (const key of answeredNull) expect((body as Record<string, unknown>)[key]).toBeNull();
  expect(validate(checked), JSON.stringify(validate.errors)).toBe(true);
  const documented = Object.keys(schemas[name]?.properties ?? {});
  expect(Object.keys(body as object)).toEqual(expect.arrayContaining(documented));
}

const FROM = '+14155550100';
const TO = '+14155550111';

describe('the fake Twilio answers as Twilio documents', () => {
  let fake: FakeTwilio;
  let auth: string;

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${fake.baseUrl}${path}`, {
      ...init,
      headers: { authorization: auth, ...(init.headers as Record<string, string>) },
    });
  const create = (form: [string, string][]) =>
    api(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });

  /** Starts the fake (steps of `stepMs`) that `api` and `create` talk to, owning FROM. */
  const startFake = async (stepMs: number) => {
    fake = new FakeTwilio({ stepMs });
    await fake.start();
    fake.addNumber(FROM);
    auth = `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`;
  };

  beforeEach(() => startFake(5));

  afterEach(async () => {
    await fake.stop();
  });

  it('creates a message: 201, an SM SID, queued, the Message resource shape', async () => {
    const response = await create([
      ['To', TO],
      ['From', FROM],
      ['Body', 'hi'],
    ]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expectTwilioShape('api.v2010.account.message', body);
    expect(body).toMatchObject({
      status: 'queued',
      num_segments: '1',
      num_media: '0',
      direction: 'outbound-api',
    });
    expect(body.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(String(body.date_created)).toMatch(
      /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/,
    );
  });

  it('takes repeated MediaUrl (an MM SID), at most ten', async () => {
    const media = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => ['MediaUrl', `https://cdn.example.com/${i}.png`] as [string, string],
      );
    const ok = await create([['To', TO], ['From', FROM], ...media(10)]);
    expect(((await ok.json()) as { sid: string }).sid).toMatch(/^MM/);
    const tooMany = await create([['To', TO], ['From', FROM], ...media(11)]);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: 21623, status: 400 });
  });

  it('answers errors as {code, message, more_info, status}', async () => {
    const cases: [[string, string][], number][] = [
      [
        [
          ['From', FROM],
          ['Body', 'x'],
        ],
        21604,
      ],
      [
        [
          ['To', TO],
          ['Body', 'x'],
        ],
        21603,
      ],
      [
        [
          ['To', '12345'],
          ['From', FROM],
          ['Body', 'x'],
        ],
        21211,
      ],
      [
        [
          ['To', TO],
          ['From', '+19999999999'],
          ['Body', 'x'],
        ],
        21606,
      ],
      [
        [
          ['To', TO],
          ['From', FROM],
        ],
        21602,
      ],
      [
        [
          ['To', TO],
          ['From', FROM],
          ['Body', 'x'.repeat(1601)],
        ],
        21617,
      ],
    ];
    for (const [form, code] of cases) {
      const response = await create(form);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toEqual({
        code,
        message: expect.any(String),
        more_info: `https://www.twilio.com/docs/errors/${code}`,
        status: 400,
      });
    }
    auth = 'Basic bm9ib2R5Om5vdGhpbmc=';
    const unauthorized = await create([
      ['To', TO],
      ['From', FROM],
      ['Body', 'x'],
    ]);
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ code: 20003 });
  });

  it('fetches and lists messages with the list page shape, filters and paging', async () => {
    for (let i = 0; i < 3; i++)
      await create([
        ['To', TO],
        ['From', FROM],
        ['Body', `m${i}`],
      ]);
    await create([
      ['To', '+14155550199'],
      ['From', FROM],
      ['Body', 'other'],
    ]);
    const list = await api(
      `/2010-04-01/Accounts/${fake.accountSid}/Messages.json?To=${encodeURIComponent(TO)}&PageSize=2`,
    );
    const page = (await list.json()) as {
      messages: { sid: string; body: string }[];
      next_page_uri: string | null;
    };
    expectTwilioShape('MessageListPage', page);
    expect(page.messages.map((m) => m.body)).toEqual(['m2', 'm1']);
    expect(page.next_page_uri).toContain('Page=1');
    const next = (await (await api(page.next_page_uri ?? '')).json()) as {
      messages: { body: string }[];
    };
    expect(next.messages.map((m) => m.body)).toEqual(['m0']);
    const sid = page.messages[0]?.sid ?? '';
    const one = await api(`/2010-04-01/Accounts/${fake.accountSid}/Messages/${sid}.json`);
    expectTwilioShape('api.v2010.account.message', await one.json());
    const missing = await api(
      `/2010-04-01/Accounts/${fake.accountSid}/Messages/SM${'0'.repeat(32)}.json`,
    );
    expect(missing.status).toBe(404);
  });

  it('matches no DateSent filter with a message not sent yet (it has no date_sent)', async () => {
    // A fake whose first step is a minute away: the message is still queued when it is listed
    // (with 5 ms steps, a busy machine could send it before the list is read).
    await fake.stop();
    await startFake(60_000);
    await create([
      ['To', '+14155550188'],
      ['From', FROM],
      ['Body', 'fresh'],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const byDate = (await (
      await api(
        `/2010-04-01/Accounts/${fake.accountSid}/Messages.json?To=%2B14155550188&DateSent=${today}`,
      )
    ).json()) as { messages: { status: string }[] };
    expect(byDate.messages).toHaveLength(0);
    const all = (await (
      await api(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json?To=%2B14155550188`)
    ).json()) as { messages: { status: string }[] };
    expect(all.messages.map((message) => message.status)).toEqual(['queued']);
  });

  it('answers the Account and Lookup v2 resources', async () => {
    const account = await api(`/2010-04-01/Accounts/${fake.accountSid}.json`);
    expectTwilioShape('api.v2010.account', await account.json());
    fake.recipients.set('+14155550122', { lineType: 'landline' });
    const lookup = await api('/v2/PhoneNumbers/%2B14155550122?Fields=line_type_intelligence');
    const body = (await lookup.json()) as {
      line_type_intelligence: { type: string; error_code?: number | null };
    };
    // Twilio answers `error_code: null` when the lookup succeeded, and `validation_errors: null`
    // for a valid number (its own examples); its OpenAPI file types them integer and array.
    expect(body.line_type_intelligence.error_code).toBeNull();
    delete body.line_type_intelligence.error_code;
    expectTwilioShape('LookupResponse', body, [
      'validation_errors',
      'caller_name',
      'sim_swap',
      'call_forwarding',
      'line_status',
      'identity_match',
      'reassigned_number',
      'sms_pumping_risk',
      'phone_number_quality_score',
      'pre_fill',
    ]);
    expect(body.line_type_intelligence.type).toBe('landline');
  });

  it('posts signed status callbacks sending → sent → delivered, and the faults reorder and repeat them', async () => {
    /** Waits (up to 10 s, however busy the host) until `count` callbacks were answered. */
    const callbacksPosted = async (count: number) => {
      await expect
        .poll(() => fake.callbacks.length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(count);
      await fake.settled();
    };
    const receiver = await startLoopbackReceiver();
    const url = `${receiver.origin}/status`;
    try {
      await create([
        ['To', TO],
        ['From', FROM],
        ['Body', 'hi'],
        ['StatusCallback', url],
      ]);
      await callbacksPosted(3);
      expect(fake.callbacks.map((c) => c.params.find(([k]) => k === 'MessageStatus')?.[1])).toEqual(
        ['sending', 'sent', 'delivered'],
      );
      const first = receiver.requests[0];
      const params = [...new URLSearchParams(first?.body.toString() ?? '').entries()];
      expect(first?.headers['x-twilio-signature']).toBe(
        signTwilioCall(fake.authToken, url, params),
      );
      fake.callbacks.length = 0;
      fake.faults = { outOfOrder: true, duplicateCallbacks: true };
      await create([
        ['To', TO],
        ['From', FROM],
        ['Body', 'again'],
        ['StatusCallback', url],
      ]);
      await callbacksPosted(6);
      expect(fake.callbacks.map((c) => c.params.find(([k]) => k === 'MessageStatus')?.[1])).toEqual(
        ['delivered', 'delivered', 'sent', 'sent', 'sending', 'sending'],
      );
    } finally {
      await receiver.close();
    }
  });

  it('answers a Standard API key 401 / 20003 on the Account resource only; a Main key reaches it', async () => {
    const key = `SK${'c'.repeat(32)}`;
    fake.apiKeys.set(key, 'secret');
    auth = `Basic ${Buffer.from(`${key}:secret`).toString('base64')}`;
    const account = await api(`/2010-04-01/Accounts/${fake.accountSid}.json`);
    expect(account.status).toBe(401);
    expect(await account.json()).toMatchObject({ code: 20003, status: 401 });
    const list = await api(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json?PageSize=1`);
    expect(list.status).toBe(200);
    const numbers = await api(`/2010-04-01/Accounts/${fake.accountSid}/IncomingPhoneNumbers.json`);
    expect(numbers.status).toBe(200);
    fake.mainApiKeys.add(key);
    expect((await api(`/2010-04-01/Accounts/${fake.accountSid}.json`)).status).toBe(200);
  });

  it('lists the IncomingPhoneNumbers with their sms_url, filtered by PhoneNumber', async () => {
    fake.addNumber('+14155550199', 'https://gateway.example.com/in#rc=3&rp=all');
    const response = await api(
      `/2010-04-01/Accounts/${fake.accountSid}/IncomingPhoneNumbers.json?PhoneNumber=%2B14155550199`,
    );
    const body = (await response.json()) as {
      incoming_phone_numbers: Record<string, unknown>[];
    };
    expectTwilioShape('IncomingPhoneNumberListPage', body);
    expect(body.incoming_phone_numbers).toHaveLength(1);
    const [number] = body.incoming_phone_numbers;
    expectTwilioShape('api.v2010.account.incoming_phone_number', number);
    expect(number).toMatchObject({
      phone_number: '+14155550199',
      sms_url: 'https://gateway.example.com/in#rc=3&rp=all',
    });
  });

  it('lists a received MMS’s media, and keeps a message whose call never arrived', async () => {
    fake.addNumber(FROM, 'http://127.0.0.1:9/sms');
    const { message, status } = await fake.inbound({
      from: TO,
      to: FROM,
      body: 'photo',
      media: [{ contentType: 'image/jpeg', data: new Uint8Array([1]) }],
      undelivered: true,
    });
    expect(status).toBe(0);
    expect(fake.callbacks).toHaveLength(0);
    const response = await api(
      `/2010-04-01/Accounts/${fake.accountSid}/Messages/${message.sid}/Media.json`,
    );
    const body = (await response.json()) as { media_list: Record<string, unknown>[] };
    expectTwilioShape('MediaListPage', body);
    expect(body.media_list).toHaveLength(1);
    expectTwilioShape('api.v2010.account.message.media', body.media_list[0]);
    expect(body.media_list[0]).toMatchObject({
      content_type: 'image/jpeg',
      parent_sid: message.sid,
    });
    const file = await api(String(body.media_list[0]?.uri).replace(/\.json$/, ''), {
      redirect: 'manual',
    });
    expect(file.status).toBe(307);
  });

  it('answers a Canadian number without approval with type null and error_code 60601', async () => {
    const lookup = (canadian: string) =>
      api(`/v2/PhoneNumbers/${encodeURIComponent(canadian)}?Fields=line_type_intelligence`).then(
        (r) => r.json() as Promise<Record<string, unknown>>,
      );
    const withheld = await lookup('+14165550123');
    expect(withheld).toMatchObject({
      country_code: 'CA',
      valid: true,
      line_type_intelligence: {
        type: null,
        error_code: 60601,
        carrier_name: null,
        mobile_country_code: null,
        mobile_network_code: null,
      },
    });
    fake.canadianLookupApproved = true;
    expect(await lookup('+14165550123')).toMatchObject({
      line_type_intelligence: { type: 'mobile', error_code: null },
    });
  });

  it('tries a callback again as its connection-override fragment says, signing the URL with it', async () => {
    const receiver = await startLoopbackReceiver((_request, response) => {
      response.writeHead(500).end();
    });
    try {
      const plain = `${receiver.origin}/status`;
      const overridden = `${plain}#rc=2&rp=5xx`;
      for (const url of [plain, overridden]) {
        await create([
          ['To', TO],
          ['From', FROM],
          ['Body', 'hi'],
          ['StatusCallback', url],
        ]);
      }
      await new Promise((resolve) => setTimeout(resolve, 60));
      await fake.settled();
      const tries = (url: string) => fake.callbacks.filter((c) => c.url === url).length;
      // Default: one retry on connect failures only, none on a 500.
      expect(tries(plain)).toBe(3);
      // rc=2, rp=5xx: every 500 tried twice more.
      expect(tries(overridden)).toBe(9);
      const last = receiver.requests.at(-1);
      expect(last?.path).toBe('/status');
      const params = [...new URLSearchParams(last?.body.toString() ?? '').entries()];
      expect(last?.headers['x-twilio-signature']).toBe(
        signTwilioCall(fake.authToken, overridden, params),
      );
    } finally {
      await receiver.close();
    }
  });

  it('opts out on Twilio’s default keywords; Advanced Opt-Out adds OptOutType', async () => {
    const receiver = await startLoopbackReceiver();
    try {
      fake.addNumber(FROM, `${receiver.origin}/sms`);
      const optOutTypeOf = async (body: string) => {
        const { message } = await fake.inbound({ from: TO, to: FROM, body });
        const request = receiver.requests.find((r) =>
          r.body.toString().includes(`MessageSid=${message.sid}`),
        );
        return new URLSearchParams(request?.body.toString() ?? '').get('OptOutType');
      };
      expect(await optOutTypeOf('revoke')).toBeNull();
      expect(fake.optOuts.has(`${FROM}|${TO}`)).toBe(true);
      expect(await optOutTypeOf('Yes')).toBeNull();
      expect(fake.optOuts.has(`${FROM}|${TO}`)).toBe(false);
      fake.advancedOptOut = { stop: ['STOP', 'ARRET'], start: ['START'], help: ['HELP'] };
      expect(await optOutTypeOf('arret')).toBe('STOP');
      expect(fake.optOuts.has(`${FROM}|${TO}`)).toBe(true);
      expect(await optOutTypeOf('help')).toBe('HELP');
      expect(await optOutTypeOf('START')).toBe('START');
      expect(fake.optOuts.has(`${FROM}|${TO}`)).toBe(false);
      expect(await optOutTypeOf('hello')).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it('counts segments as carriers do', () => {
    expect(segmentsOf('a'.repeat(160))).toBe(1);
    expect(segmentsOf('a'.repeat(161))).toBe(2);
    expect(segmentsOf('€'.repeat(80))).toBe(1);
    expect(segmentsOf('€'.repeat(81))).toBe(2);
    expect(segmentsOf('é'.repeat(160))).toBe(1);
    expect(segmentsOf('😀'.repeat(35))).toBe(1);
    expect(segmentsOf('😀'.repeat(36))).toBe(2);
  });
});
