import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signWebhookPayload,
  verifyWebhook,
  WebhookInvalidJsonError,
  WebhookMalformedSignatureError,
  WebhookMalformedTimestampError,
  WebhookMissingHeaderError,
  WebhookRawBodyRequiredError,
  WebhookSignatureMismatchError,
  WebhookTimestampInFutureError,
  WebhookTimestampTooOldError,
  WebhookVerificationError,
} from '../src/webhooks/index';

const secret = 'whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH';
const event = {
  id: 'evt_0193a8f3-0c11-7b2a-9e3f-5a6b7c8d9e0f',
  type: 'message.delivered',
  timestamp: '2026-11-21T10:00:00.000Z',
  data: { messageId: 'msg_1', text: 'héllo ✓', status: 'delivered' },
};
// Deliberately not what JSON.stringify would produce, to prove no re-serialisation happens.
const body = `{"id":"${event.id}", "type":"message.delivered","timestamp":"${event.timestamp}","data":{"messageId":"msg_1","text":"héllo ✓","status":"delivered"}}`;

const now = () => Math.floor(Date.now() / 1000);

/** Signs the way the spec says, with node:crypto, independently of the SDK's WebCrypto code. */
function nodeSign(payload: string | Buffer, key = secret, timestamp = now()) {
  const mac = createHmac('sha256', key).update(`${timestamp}.`).update(payload).digest('hex');
  return { 'x-signature': `sha256=${mac}`, 'x-timestamp': String(timestamp) };
}

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed with node:crypto and returns the event', async () => {
    const result = await verifyWebhook({ payload: body, headers: nodeSign(body), secret });
    expect(result).toEqual(event);
  });

  it('accepts a Buffer, a Uint8Array, an ArrayBuffer and a Headers object', async () => {
    const headers = nodeSign(body);
    const buffer = Buffer.from(body);
    const bytes = new TextEncoder().encode(body);
    for (const payload of [buffer, bytes, bytes.buffer]) {
      await expect(verifyWebhook({ payload, headers, secret })).resolves.toEqual(event);
    }
    await expect(
      verifyWebhook({ payload: body, headers: new Headers(headers), secret }),
    ).resolves.toEqual(event);
  });

  it('reads headers case-insensitively and takes the first of repeated values', async () => {
    const { 'x-signature': signature, 'x-timestamp': timestamp } = nodeSign(body);
    const headers = { 'X-SIGNATURE': [signature, 'sha256=00'], 'X-Timestamp': timestamp };
    await expect(verifyWebhook({ payload: body, headers, secret })).resolves.toEqual(event);
  });

  it('verifies the exact bytes of a body that is not valid UTF-8 text', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"id":"evt_1","type":"webhook.test","x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const headers = nodeSign(raw);
    const result = await verifyWebhook<{ id: string }>({ payload: raw, headers, secret });
    expect(result.id).toBe('evt_1');
    const error = await rejection(
      verifyWebhook({ payload: raw.toString('utf8'), headers, secret }),
    );
    expect(error).toBeInstanceOf(WebhookSignatureMismatchError);
  });

  it('rejects a parsed object and tells the caller to pass the raw body', async () => {
    const error = await rejection(
      verifyWebhook({ payload: event as unknown as string, headers: nodeSign(body), secret }),
    );
    expect(error).toBeInstanceOf(WebhookRawBodyRequiredError);
    expect(error.reason).toBe('raw_body_required');
    expect(error.message).toContain('needs the raw request body');
    const missing = await rejection(
      verifyWebhook({ payload: undefined as unknown as string, headers: nodeSign(body), secret }),
    );
    expect(missing).toBeInstanceOf(WebhookRawBodyRequiredError);
  });

  it('names each missing header', async () => {
    const { 'x-signature': signature, 'x-timestamp': timestamp } = nodeSign(body);
    const noSignature = await rejection(
      verifyWebhook({ payload: body, headers: { 'x-timestamp': timestamp }, secret }),
    );
    expect(noSignature).toBeInstanceOf(WebhookMissingHeaderError);
    expect((noSignature as WebhookMissingHeaderError).headers).toEqual(['X-Signature']);
    const noTimestamp = await rejection(
      verifyWebhook({ payload: body, headers: { 'x-signature': signature }, secret }),
    );
    expect((noTimestamp as WebhookMissingHeaderError).headers).toEqual(['X-Timestamp']);
    const neither = await rejection(verifyWebhook({ payload: body, headers: {}, secret }));
    expect(neither.message).toContain('X-Signature and X-Timestamp');
  });

  it.each([
    ['no scheme', 'abc'],
    ['another algorithm', `sha1=${'a'.repeat(64)}`],
    ['a short digest', `sha256=${'a'.repeat(63)}`],
    ['non-hex characters', `sha256=${'g'.repeat(64)}`],
  ])('rejects a malformed signature: %s', async (_case, signature) => {
    const headers = { ...nodeSign(body), 'x-signature': signature };
    const error = await rejection(verifyWebhook({ payload: body, headers, secret }));
    expect(error).toBeInstanceOf(WebhookMalformedSignatureError);
  });

  it('rejects a malformed timestamp', async () => {
    const headers = { ...nodeSign(body), 'x-timestamp': '2026-11-21T10:00:00Z' };
    const error = await rejection(verifyWebhook({ payload: body, headers, secret }));
    expect(error).toBeInstanceOf(WebhookMalformedTimestampError);
  });

  it('rejects a timestamp older than the tolerance, even with a valid signature', async () => {
    const old = now() - 301;
    const error = await rejection(
      verifyWebhook({ payload: body, headers: nodeSign(body, secret, old), secret }),
    );
    expect(error).toBeInstanceOf(WebhookTimestampTooOldError);
    expect(error.message).toMatch(/30[12] s old/);
  });

  it('rejects a timestamp too far in the future', async () => {
    const ahead = now() + 400;
    const error = await rejection(
      verifyWebhook({ payload: body, headers: nodeSign(body, secret, ahead), secret }),
    );
    expect(error).toBeInstanceOf(WebhookTimestampInFutureError);
  });

  it('honours a custom tolerance', async () => {
    const headers = nodeSign(body, secret, now() - 100);
    await expect(verifyWebhook({ payload: body, headers, secret })).resolves.toEqual(event);
    const error = await rejection(
      verifyWebhook({ payload: body, headers, secret, toleranceSeconds: 60 }),
    );
    expect(error).toBeInstanceOf(WebhookTimestampTooOldError);
  });

  it('rejects a wrong secret', async () => {
    const error = await rejection(
      verifyWebhook({ payload: body, headers: nodeSign(body, 'another-secret-0123'), secret }),
    );
    expect(error).toBeInstanceOf(WebhookSignatureMismatchError);
    expect(error.reason).toBe('signature_mismatch');
  });

  it('rejects a tampered body', async () => {
    const headers = nodeSign(body);
    const tampered = body.replace('delivered', 'read');
    const error = await rejection(verifyWebhook({ payload: tampered, headers, secret }));
    expect(error).toBeInstanceOf(WebhookSignatureMismatchError);
  });

  it('rejects a tampered timestamp', async () => {
    const signedAt = now() - 10;
    const headers = { ...nodeSign(body, secret, signedAt), 'x-timestamp': String(signedAt + 1) };
    const error = await rejection(verifyWebhook({ payload: body, headers, secret }));
    expect(error).toBeInstanceOf(WebhookSignatureMismatchError);
  });

  it('rejects a correctly signed body that is not JSON', async () => {
    const error = await rejection(
      verifyWebhook({ payload: 'not json', headers: nodeSign('not json'), secret }),
    );
    expect(error).toBeInstanceOf(WebhookInvalidJsonError);
  });
});

describe('signWebhookPayload', () => {
  it('produces the same headers as an independent node:crypto HMAC', async () => {
    const timestamp = 1_790_000_000;
    const headers = await signWebhookPayload({ payload: body, secret, timestamp });
    const expected = nodeSign(body, secret, timestamp);
    expect(headers).toEqual({
      'X-Signature': expected['x-signature'],
      'X-Timestamp': expected['x-timestamp'],
    });
  });

  it('signs at the current time by default, and accepts a Date', async () => {
    const headers = await signWebhookPayload({ payload: body, secret });
    await expect(verifyWebhook({ payload: body, headers, secret })).resolves.toEqual(event);
    const at = new Date('2026-11-21T10:00:00.900Z');
    const dated = await signWebhookPayload({ payload: body, secret, timestamp: at });
    expect(dated['X-Timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
  });
});
