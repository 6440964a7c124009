import type { Message } from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  SIMULATOR_SIGNATURE_HEADER,
  signSimulatorCall,
} from '../../src/providers/simulator/simulator-ingress';
import { adminHeaders } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import {
  buildUpstreamApp,
  UPSTREAM_NUMBER,
  UPSTREAM_SECRET,
  type UpstreamApp,
} from '../support/simulated-upstream';
import { buildSimulatorTestApp, recordedEvents } from '../support/simulator-app';
import { bearer, loopbackOrigin, tempDir } from '../support/test-app';

const SECRET = UPSTREAM_SECRET;
const NUMBER = UPSTREAM_NUMBER;

const fixture = (options: { dir?: string; env?: Record<string, string> } = {}) =>
  buildUpstreamApp(options);

function signedJson(app: FastifyInstance, path: string, body: object, secret = SECRET) {
  const payload = JSON.stringify(body);
  return app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/json',
      [SIMULATOR_SIGNATURE_HEADER]: signSimulatorCall(secret, payload),
    },
    payload,
  });
}

async function inboundMessages(t: UpstreamApp): Promise<Message[]> {
  const page = expectSuccess<{ messages: Message[] }>(
    await t.app.inject({ method: 'GET', url: '/v1/messages', headers: bearer(t.key) }),
  );
  return page.messages;
}

const inbound = (id: string, extra: object = {}) => ({
  id,
  type: 'message.inbound',
  channel: 'sms',
  from: '+14155550199',
  to: NUMBER,
  text: `hello ${id}`,
  ...extra,
});

describe('the provider ingress', () => {
  it('hands a signed JSON call to the adapter and answers with the adapter’s answer', async () => {
    const t = await fixture();
    const events = recordedEvents(t.app, t.customerId);
    const response = await signedJson(
      t.app,
      t.path,
      inbound('up-1', { timestamp: '2026-01-10T08:00:00.000Z' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toEqual({ received: true });
    const [message] = await inboundMessages(t);
    expect(message).toMatchObject({
      from: '+14155550199',
      to: NUMBER,
      content: { text: 'hello up-1' },
    });
    // The upstream's time, not the time of arrival.
    expect(message?.createdAt).toBe('2026-01-10T08:00:00.000Z');
    expect(events.filter((event) => event.type === 'message.inbound')).toHaveLength(1);
  });

  it('takes form-encoded calls and passes the adapter’s content type through (TwiML)', async () => {
    const t = await fixture();
    const payload = new URLSearchParams(inbound('up-form') as Record<string, string>).toString();
    const response = await t.app.inject({
      method: 'POST',
      url: t.path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        [SIMULATOR_SIGNATURE_HEADER]: signSimulatorCall(SECRET, payload),
      },
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/xml/);
    expect(response.body).toBe('<Response/>');
    expect((await inboundMessages(t)).map((m) => m.content.text)).toEqual(['hello up-form']);
  });

  it('produces each upstream event once: redelivered, replayed after a restart', async () => {
    const t = await fixture({ dir: tempDir() });
    for (let i = 0; i < 3; i += 1) {
      expect((await signedJson(t.app, t.path, inbound('up-dup'))).statusCode).toBe(200);
    }
    expect(await inboundMessages(t)).toHaveLength(1);
    await t.close();

    const again = await buildSimulatorTestApp({ dir: t.dir });
    // The upstream replays its history after its own restart: same ids, nothing new.
    for (const id of ['up-dup', 'up-dup']) {
      expect((await signedJson(again.app, t.path, inbound(id))).statusCode).toBe(200);
    }
    expect((await signedJson(again.app, t.path, inbound('up-new'))).statusCode).toBe(200);
    const page = expectSuccess<{ messages: Message[] }>(
      await again.app.inject({ method: 'GET', url: '/v1/messages', headers: bearer(t.key) }),
    );
    expect(page.messages.map((m) => m.content.text).sort()).toEqual([
      'hello up-dup',
      'hello up-new',
    ]);
  });

  it('applies status callbacks that arrive out of order once, ending on the furthest status', async () => {
    const t = await fixture({ env: { SIMULATOR_STEP_MS: '60000' } });
    const sent = expectSuccess<{ id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: bearer(t.key),
        payload: { to: '+14155550111', content: { text: 'hi' }, routing: { preference: ['sms'] } },
      }),
      202,
    );
    let message: Message | undefined;
    for (let i = 0; i < 100 && !message?.externalId; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      message = expectSuccess<Message>(
        await t.app.inject({
          method: 'GET',
          url: `/v1/messages/${sent.id}`,
          headers: bearer(t.key),
        }),
      );
    }
    const externalId = message?.externalId ?? '';
    const status = (id: string, value: string) =>
      signedJson(t.app, t.path, {
        id,
        type: 'message.status',
        channel: 'sms',
        externalId,
        status: value,
      });
    expect((await status('cb-2', 'delivered')).statusCode).toBe(200);
    expect((await status('cb-1', 'sent')).statusCode).toBe(200);
    expect((await status('cb-2', 'delivered')).statusCode).toBe(200);
    const final = expectSuccess<Message>(
      await t.app.inject({ method: 'GET', url: `/v1/messages/${sent.id}`, headers: bearer(t.key) }),
    );
    expect(final.status).toBe('delivered');
    expect(final.timeline.map((entry) => entry.status)).toEqual(['queued', 'sent', 'delivered']);
  });

  it('lets the adapter refuse a bad signature, and records nothing', async () => {
    const t = await fixture();
    const forged = await signedJson(t.app, t.path, inbound('up-forged'), 'not-the-secret-at-all');
    expect(forged.statusCode).toBe(401);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: t.path,
      payload: inbound('up-unsigned'),
    });
    expect(unsigned.statusCode).toBe(401);
    expect(await inboundMessages(t)).toEqual([]);
  });

  it('answers 404 for a wrong token or an unknown instance, with nothing else revealed', async () => {
    const t = await fixture();
    const base = t.path.slice(0, t.path.lastIndexOf('/'));
    const responses = [
      await signedJson(t.app, `${base}/ingr_wrong`, inbound('x')),
      await signedJson(t.app, `${base}/`, inbound('x')),
      await signedJson(
        t.app,
        t.path.replace(t.instance.id, '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f'),
        inbound('x'),
      ),
      await signedJson(t.app, t.path.replace(t.instance.id, 'not-a-uuid'), inbound('x')),
    ];
    const messages = responses.map(
      (response) => expectFailure(response, 404, 'NOT_FOUND').error.message,
    );
    expect(new Set(messages.slice(0, 1).concat(messages.slice(2)))).toEqual(
      new Set(['No such ingress']),
    );
    expect(await inboundMessages(t)).toEqual([]);
  });

  it('refuses a body over INGRESS_BODY_LIMIT_BYTES with 413, and a disabled instance with 503', async () => {
    const t = await fixture({ env: { INGRESS_BODY_LIMIT_BYTES: '2048' } });
    const big = await signedJson(t.app, t.path, inbound('big', { text: 'x'.repeat(4096) }));
    expectFailure(big, 413, 'PAYLOAD_TOO_LARGE');
    expect((await signedJson(t.app, t.path, inbound('small'))).statusCode).toBe(200);

    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/instances/${t.instance.id}`,
      headers: adminHeaders,
      payload: { enabled: false },
    });
    expectFailure(
      await signedJson(t.app, t.path, inbound('while-off')),
      503,
      'SERVICE_UNAVAILABLE',
    );
  });

  it('works over real HTTP, needing no API key, and hands the adapter the public URL', async () => {
    const t = await fixture({ env: { PUBLIC_BASE_URL: 'https://switchboard.example.com' } });
    expect(t.instance.ingressUrl).toMatch(/^https:\/\/switchboard\.example\.com\/providers\//);
    let seenUrl: string | undefined;
    const provider = await t.app.services.providers.provider(t.instance.id);
    const original = provider.handleWebhook?.bind(provider);
    provider.handleWebhook = async (request) => {
      seenUrl = request.url;
      if (!original) throw new Error('the simulator takes webhooks');
      return original(request);
    };
    const origin = await loopbackOrigin(t.app);
    const body = JSON.stringify(inbound('over-http'));
    const response = await fetch(`${origin}${t.path}?attempt=1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIMULATOR_SIGNATURE_HEADER]: signSimulatorCall(SECRET, body),
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(seenUrl).toBe(`https://switchboard.example.com${t.path}?attempt=1`);
  });
});
