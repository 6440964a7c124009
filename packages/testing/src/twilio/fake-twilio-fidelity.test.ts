import twilio from 'twilio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoopbackReceiver, startLoopbackReceiver } from '../loopback-receiver';
import {
  FAKE_TWILIO_ERROR_CODES,
  FAKE_TWILIO_ROUTES,
  FakeTwilio,
  type FakeTwilioCallbackKind,
} from './fake-twilio';
import { FAKE_TWILIO_FIDELITY } from './fake-twilio-fidelity';

/**
 * twilio-node's own signature check, run as it is: `validateRequest` from the `twilio` package
 * (twilio-node@45d3d65 src/webhooks/webhooks.ts:127-166 computes the signature, :189-246 tries the
 * URL with and without its default port), the function Twilio's customers verify callbacks with.
 */
const twilioNodeValidateRequest = (
  authToken: string,
  twilioHeader: string,
  url: string,
  params: Record<string, string | string[]>,
): boolean => twilio.validateRequest(authToken, twilioHeader, url, params);

/** The form of a request as twilio-node's Express middleware hands it to the validator. */
function paramsOf(body: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const prior = params[name];
    params[name] = prior === undefined ? value : [...[prior].flat(), value];
  }
  return params;
}

/** `MediaUrl0` → `MediaUrl{N}`, as the table names numbered parameters. */
const paramName = (name: string) => name.replace(/\d+$/, '{N}');

const FROM = '+14155550100';
const TO = '+14155550111';

describe('the fake Twilio’s fidelity table', () => {
  let fake: FakeTwilio;
  let receiver: LoopbackReceiver;

  beforeEach(async () => {
    fake = new FakeTwilio({ stepMs: 5 });
    await fake.start();
    receiver = await startLoopbackReceiver();
  });

  afterEach(async () => {
    await fake.stop();
    await receiver.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${fake.baseUrl}${path}`, {
      redirect: 'manual',
      ...init,
      headers: {
        authorization: `Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`,
        ...(init.headers as Record<string, string>),
      },
    });

  /** Drives every kind of call the fake makes, every optional parameter included. */
  const exerciseCallbacks = async () => {
    const statusUrl = `${receiver.origin}/status#rc=2&rp=5xx`;
    fake.addNumber(FROM, `${receiver.origin}/sms`);
    fake.services.set(`MG${'a'.repeat(32)}`, [FROM]);
    fake.recipients.set('+14155550122', { outcome: 'undelivered', errorCode: 30006 });
    for (const [to, sender] of [
      [TO, ['From', FROM]],
      ['+14155550122', ['MessagingServiceSid', `MG${'a'.repeat(32)}`]],
    ] as const) {
      await api(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams([
          ['To', to],
          [...sender],
          ['Body', 'hi'],
          ['StatusCallback', statusUrl],
        ]).toString(),
      });
    }
    const image = { contentType: 'image/png', data: new Uint8Array([1, 2, 3]) };
    const photo = await fake.inbound({ from: TO, to: FROM, body: 'photo', media: [image] });
    fake.advancedOptOut = { stop: ['STOP'], start: ['START'], help: ['HELP'] };
    await fake.inbound({ from: TO, to: FROM, body: 'STOP' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await fake.settled();
    return { statusUrl, photo: photo.message.sid };
  };

  it('has one row per route the fake serves, and none for a route it lacks', () => {
    const rows = FAKE_TWILIO_FIDELITY.filter((row) => row.kind === 'route').map((r) => r.subject);
    expect(new Set(rows).size).toBe(rows.length);
    expect([...rows].sort()).toEqual(FAKE_TWILIO_ROUTES.map((route) => route.id).sort());
  });

  it('serves every route of the table for real', async () => {
    const { photo } = await exerciseCallbacks();
    const mediaUrl = fake.callbacks
      .find((c) => c.kind === 'inbound' && c.params.some(([k]) => k === 'MediaUrl0'))
      ?.params.find(([k]) => k === 'MediaUrl0')?.[1];
    const mediaSid = mediaUrl?.split('/').at(-1) ?? '';
    for (const route of FAKE_TWILIO_ROUTES) {
      const path = route.id
        .slice(route.method.length + 1)
        .replace('{PhoneNumber}', encodeURIComponent(TO))
        .replace('{AccountSid}', fake.accountSid)
        .replace('/Accounts/{Sid}', `/Accounts/${fake.accountSid}`)
        .replace('{MessageSid}', photo)
        .replace('Messages/{Sid}', `Messages/${photo}`)
        .replace('Media/{Sid}', `Media/${mediaSid}`);
      const response = await api(
        path,
        route.method === 'POST'
          ? {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams([
                ['To', '+14155550177'],
                ['From', FROM],
                ['Body', 'x'],
              ]).toString(),
            }
          : {},
      );
      expect(response.status, route.id).toBeGreaterThanOrEqual(200);
      expect(response.status, route.id).toBeLessThan(400);
    }
  });

  it('has a row for every callback kind and parameter the fake posts, and posts every one it names', async () => {
    await exerciseCallbacks();
    const posted = new Map<FakeTwilioCallbackKind, Set<string>>();
    for (const callback of fake.callbacks) {
      const names = posted.get(callback.kind) ?? new Set<string>();
      for (const [name] of callback.params) names.add(paramName(name));
      posted.set(callback.kind, names);
    }
    const rows = FAKE_TWILIO_FIDELITY.filter((row) => row.kind === 'callback');
    expect(rows.map((row) => row.subject).sort()).toEqual([...posted.keys()].sort());
    for (const row of rows) {
      const names = posted.get(row.subject as FakeTwilioCallbackKind);
      expect([...(names ?? [])].sort(), row.subject).toEqual([...(row.params ?? [])].sort());
    }
  });

  it('has a row for every error code the fake answers', () => {
    const rows = FAKE_TWILIO_FIDELITY.filter((row) => row.kind === 'error').map((r) => r.subject);
    for (const code of FAKE_TWILIO_ERROR_CODES) expect(rows).toContain(String(code));
    for (const row of rows.filter((subject) => /^\d+$/.test(subject))) {
      expect(FAKE_TWILIO_ERROR_CODES).toContain(Number(row));
    }
  });

  it('cites Twilio for every row: an OpenAPI path and line, twilio-node file:line, or a Twilio URL', () => {
    const citation =
      /^(twilio_(api_v2010|lookups_v2)\.json .+ line \d+|twilio-node@45d3d65 src\/\S+:\d+|https:\/\/(www\.twilio\.com\/docs|help\.twilio\.com|github\.com\/twilio)\/\S+)/;
    for (const row of FAKE_TWILIO_FIDELITY) {
      expect(row.sources.length, row.subject).toBeGreaterThan(0);
      for (const source of row.sources) expect(source, row.subject).toMatch(citation);
    }
  });

  it('signs every call as twilio-node checks it: the URL as configured, override fragment included', async () => {
    const { statusUrl } = await exerciseCallbacks();
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) {
      const configured =
        request.path === '/status' ? statusUrl : `${receiver.origin}${request.path}`;
      const signature = String(request.headers['x-twilio-signature']);
      const params = paramsOf(request.body.toString());
      expect(twilioNodeValidateRequest(fake.authToken, signature, configured, params)).toBe(true);
      if (configured.includes('#')) {
        const received = `${receiver.origin}${request.path}`;
        expect(twilioNodeValidateRequest(fake.authToken, signature, received, params)).toBe(false);
      }
    }
  });
});
