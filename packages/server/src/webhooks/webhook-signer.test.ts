import { createHmac, timingSafeEqual } from 'node:crypto';
import { type LoopbackReceiver, startLoopbackReceiver } from '@switchboard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeDispatcher } from '../egress/safe-dispatcher';
import { deliver } from './delivery-client';
import {
  buildDeliveryHeaders,
  signWebhook,
  toUnixSeconds,
  WEBHOOK_USER_AGENT,
} from './webhook-signer';

/** The receiver's side, written independently of the signer: what a customer would implement. */
function verify(secret: string, timestamp: string, rawBody: Buffer, header: string): boolean {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from(`${timestamp}.`), rawBody]))
      .digest('hex')}`,
  );
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('signWebhook', () => {
  it('matches a known HMAC-SHA256 vector', () => {
    // printf '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac 'whsec_test'
    expect(signWebhook('whsec_test', 1700000000, '{"id":"evt_1"}')).toBe(
      'sha256=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925',
    );
  });

  it('signs strings and bytes identically', () => {
    const body = '{"text":"héllo 👋"}';
    expect(signWebhook('s', 1, body)).toBe(signWebhook('s', 1, Buffer.from(body, 'utf8')));
  });

  it('changes with the secret, the timestamp and every byte of the body', () => {
    const base = signWebhook('secret', 1700000000, '{"a":1}');
    expect(signWebhook('secret2', 1700000000, '{"a":1}')).not.toBe(base);
    expect(signWebhook('secret', 1700000001, '{"a":1}')).not.toBe(base);
    expect(signWebhook('secret', 1700000000, '{"a": 1}')).not.toBe(base);
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signWebhook('s', 1700000000.5, '{}')).toThrow(RangeError);
    expect(() => signWebhook('s', -1, '{}')).toThrow(RangeError);
  });

  it('converts times to Unix seconds', () => {
    expect(toUnixSeconds(new Date('2026-01-01T00:00:00.999Z'))).toBe(1767225600);
    expect(toUnixSeconds(1767225600999)).toBe(1767225600);
  });
});

describe('signed delivery to a real receiver', () => {
  let receiver: LoopbackReceiver;
  const dispatcher = createSafeDispatcher({ allowPrivate: true });

  beforeAll(async () => {
    receiver = await startLoopbackReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await dispatcher.close();
  });

  it('sends exactly the bytes it signed, with every spec header', async () => {
    const secret = 'whsec_9f8e7d6c5b4a';
    // Non-ASCII text and a key order no re-serialization would keep: the receiver must get these bytes.
    const body =
      '{"type":"message.inbound","id":"evt_1","data":{"text":"Grüße 👋\\u2028","z":1,"a":2}}';
    const now = new Date('2026-03-01T12:00:00.000Z');
    const headers = buildDeliveryHeaders({
      secret,
      body,
      timestamp: now,
      correlationId: 'cor_0123456789abcdef0123456789abcdef',
      eventId: 'evt_1',
      eventType: 'message.inbound',
    });

    const outcome = await deliver({
      url: `${receiver.origin}/hooks`,
      headers,
      body,
      timeoutMs: 5000,
      dispatcher,
    });

    expect(outcome.kind).toBe('delivered');
    const received = receiver.requests.at(-1);
    expect(received).toBeDefined();
    if (received === undefined) return;
    expect(received.method).toBe('POST');
    expect(received.path).toBe('/hooks');
    expect(received.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(received.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(received.headers['x-timestamp']).toBe('1772366400');
    expect(received.headers['x-correlation-id']).toBe('cor_0123456789abcdef0123456789abcdef');
    expect(received.headers['x-event-id']).toBe('evt_1');
    expect(received.headers['x-event-type']).toBe('message.inbound');
    expect(received.headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(
      verify(
        secret,
        String(received.headers['x-timestamp']),
        received.body,
        String(received.headers['x-signature']),
      ),
    ).toBe(true);
    // The wrong secret (for example the one before a rotation) does not verify.
    expect(
      verify(
        'whsec_old',
        String(received.headers['x-timestamp']),
        received.body,
        String(received.headers['x-signature']),
      ),
    ).toBe(false);
  });
});
