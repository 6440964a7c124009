import type { Message } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../support/test-app';
import { buildMessagingApp, errorCodeOf, otherCustomer, timelineOf } from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

const READS = '+14155550104';
const DELIVERED = '+14155550198';
const SMS_ONLY = '+14155550113';
const FAILS = '+14155550133';
const FAILS_FIRST = '+14155550131';
const EDIT_FAILS = '+14155550171';
const EDIT_TIMES_OUT = '+14155550177';
const WHATSAPP = '+14155550162';
const UNKNOWN = 'msg_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f';

const text = { text: 'Dinner at 8?' };

describe('POST /v1/messages/:id/retry', () => {
  it('queues a failed message again: same id, retryCount + 1, new externalId, full event chain', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: FAILS_FIRST, content: text });
    const failed = await t.waitForStatus(id, 'failed');
    expect(failed.externalId).toBeNull();

    const response = await t.request('POST', `/v1/messages/${id}/retry`);
    expect(response.statusCode).toBe(202);
    expect(bodyOf(response).data).toEqual({ id, status: 'queued', retryCount: 1 });
    const delivered = await t.waitForStatus(id, 'delivered');
    expect(delivered).toMatchObject({
      id,
      retryCount: 1,
      channel: 'imessage',
      fallbackTriggered: false,
      errorCode: null,
      errorMessage: null,
      externalId: expect.any(String),
    });
    expect(timelineOf(delivered)).toEqual([
      'queued:-',
      'failed:sms',
      'queued:-',
      'sent:imessage',
      'delivered:imessage',
    ]);
    expect(t.eventTypes(id)).toEqual([
      'message.queued',
      'message.fallback',
      'message.failed',
      'message.queued',
      'message.sent',
      'message.delivered',
    ]);
  });

  it('may be called again while the message keeps failing; each retry has a new attempt', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: FAILS, content: text });
    await t.waitForStatus(id, 'failed');
    expect(bodyOf(await t.request('POST', `/v1/messages/${id}/retry`)).data).toMatchObject({
      retryCount: 1,
    });
    await t.waitFor(id, (m) => m.status === 'failed' && m.retryCount === 1);
    expect(bodyOf(await t.request('POST', `/v1/messages/${id}/retry`)).data).toMatchObject({
      retryCount: 2,
    });
    const again = await t.waitFor(id, (m) => m.status === 'failed' && m.retryCount === 2);
    expect(again.errorCode).toBe('IMESSAGE_SEND_FAILED');
  });

  it('gives the provider a new externalId per attempt and the same attempt id only for the same attempt', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const id = await t.sendOk({ to: FAILS_FIRST, content: text });
    await t.waitForStatus(id, 'failed');
    await t.request('POST', `/v1/messages/${id}/retry`);
    await t.waitForStatus(id, 'delivered');
    const attempts = calls.sends.filter((send) => send.messageId === id);
    expect(attempts.map((send) => `${send.attempt}:${send.channel}`)).toEqual([
      '0:imessage',
      '0:sms',
      '1:imessage',
    ]);
    expect(new Set(attempts.map((send) => send.attemptId)).size).toBe(3);
  });

  it('answers 400 INVALID_STATUS for a message that is not failed, 404 for an unknown one', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: DELIVERED, content: text });
    await t.waitForStatus(id, 'delivered');
    const response = await t.request('POST', `/v1/messages/${id}/retry`);
    expect(response.statusCode).toBe(400);
    expect(errorCodeOf(response)).toBe('INVALID_STATUS');
    expect((await t.get(id)).retryCount).toBe(0);
    const unknown = await t.request('POST', `/v1/messages/${UNKNOWN}/retry`);
    expect(unknown.statusCode).toBe(404);
    expect(errorCodeOf(unknown)).toBe('NOT_FOUND');
  });
});

describe('POST /v1/messages/:id/unsend', () => {
  it('unsends a sent iMessage: status unsent, message.unsent; a repeat answers 409 ALREADY_UNSENT', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: READS, content: text });
    await t.waitForStatus(id, 'read');
    const response = await t.request('POST', `/v1/messages/${id}/unsend`);
    expect(response.statusCode).toBe(200);
    const message = bodyOf<{ data: Message }>(response).data;
    expect(message).toMatchObject({ id, status: 'unsent' });
    expect(timelineOf(message).at(-1)).toBe('unsent:imessage');
    expect(t.eventTypes(id).at(-1)).toBe('message.unsent');
    const again = await t.request('POST', `/v1/messages/${id}/unsend`);
    expect(again.statusCode).toBe(409);
    expect(errorCodeOf(again)).toBe('ALREADY_UNSENT');
    // An unsent message takes no edit.
    const edit = await t.request('PUT', `/v1/messages/${id}`, { text: 'x' });
    expect(errorCodeOf(edit)).toBe('INVALID_STATUS');
  });

  it('answers CHANNEL_NOT_SUPPORTED off imessage and INVALID_STATUS before it is sent', async () => {
    const t = await buildMessagingApp();
    const sms = await t.sendOk({ to: SMS_ONLY, content: text });
    await t.waitForStatus(sms, 'delivered');
    const smsResponse = await t.request('POST', `/v1/messages/${sms}/unsend`);
    expect(smsResponse.statusCode).toBe(400);
    expect(errorCodeOf(smsResponse)).toBe('CHANNEL_NOT_SUPPORTED');

    const scheduledAt = new Date(t.clock.now() + 3_600_000).toISOString();
    const later = await t.sendOk({ to: READS, content: text, scheduledAt });
    const laterResponse = await t.request('POST', `/v1/messages/${later}/unsend`);
    expect(laterResponse.statusCode).toBe(400);
    expect(errorCodeOf(laterResponse)).toBe('INVALID_STATUS');

    const failed = await t.sendOk({ to: FAILS, content: text, routing: { fallback: false } });
    await t.waitForStatus(failed, 'failed');
    expect(errorCodeOf(await t.request('POST', `/v1/messages/${failed}/unsend`))).toBe(
      'INVALID_STATUS',
    );
  });
});

describe('PUT /v1/messages/:id (edit)', () => {
  it('edits a sent iMessage: new text, message.edited with text and previousText', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: DELIVERED, content: text });
    await t.waitForStatus(id, 'delivered');
    const response = await t.request('PUT', `/v1/messages/${id}`, {
      text: 'Dinner at 9?',
      backwardsCompatibilityMessage: 'Edited: Dinner at 9?',
    });
    expect(response.statusCode).toBe(200);
    expect(bodyOf<{ data: Message }>(response).data).toMatchObject({
      id,
      status: 'delivered',
      content: { text: 'Dinner at 9?' },
    });
    expect((await t.get(id)).content.text).toBe('Dinner at 9?');
    const edited = t.events.find((event) => event.type === 'message.edited');
    expect(edited).toMatchObject({
      data: { messageId: id, text: 'Dinner at 9?', previousText: 'Dinner at 8?' },
    });
  });

  it('answers 502 EDIT_FAILED with message.edit_failed (DD 70–74); the text stays', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: EDIT_FAILS, content: text });
    await t.waitForStatus(id, 'delivered');
    const response = await t.request('PUT', `/v1/messages/${id}`, { text: 'Dinner at 9?' });
    expect(response.statusCode).toBe(502);
    expect(errorCodeOf(response)).toBe('EDIT_FAILED');
    expect((await t.get(id)).content.text).toBe('Dinner at 8?');
    expect(t.events.find((event) => event.type === 'message.edit_failed')).toMatchObject({
      data: {
        messageId: id,
        text: 'Dinner at 8?',
        attemptedText: 'Dinner at 9?',
        errorCode: 'EDIT_FAILED',
      },
    });
  });

  it('answers 504 PROVIDER_TIMEOUT with message.edit_failed (DD 75–79)', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: EDIT_TIMES_OUT, content: text });
    await t.waitForStatus(id, 'delivered');
    const response = await t.request('PUT', `/v1/messages/${id}`, { text: 'Dinner at 9?' });
    expect(response.statusCode).toBe(504);
    expect(errorCodeOf(response)).toBe('PROVIDER_TIMEOUT');
    expect(t.eventTypes(id).at(-1)).toBe('message.edit_failed');
  });

  it('answers CHANNEL_NOT_SUPPORTED off imessage, INVALID_STATUS unsent, VALIDATION_ERROR for empty text', async () => {
    const t = await buildMessagingApp();
    const sms = await t.sendOk({ to: SMS_ONLY, content: text });
    await t.waitForStatus(sms, 'delivered');
    expect(errorCodeOf(await t.request('PUT', `/v1/messages/${sms}`, { text: 'x' }))).toBe(
      'CHANNEL_NOT_SUPPORTED',
    );
    const scheduledAt = new Date(t.clock.now() + 3_600_000).toISOString();
    const later = await t.sendOk({ to: READS, content: text, scheduledAt });
    expect(errorCodeOf(await t.request('PUT', `/v1/messages/${later}`, { text: 'x' }))).toBe(
      'INVALID_STATUS',
    );
    const empty = await t.request('PUT', `/v1/messages/${later}`, { text: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(errorCodeOf(empty)).toBe('VALIDATION_ERROR');
    expect((await t.request('PUT', `/v1/messages/${UNKNOWN}`, { text: 'x' })).statusCode).toBe(404);
  });
});

describe('POST /v1/messages/:id/reactions', () => {
  it('adds the six tapbacks and their negative forms on imessage; refuses other values', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const id = await t.sendOk({ to: DELIVERED, content: text });
    await t.waitForStatus(id, 'delivered');
    for (const type of ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question', '-question']) {
      const response = await t.request('POST', `/v1/messages/${id}/reactions`, { type });
      expect(response.statusCode, type).toBe(200);
      expect(bodyOf(response).data).toEqual({ messageId: id, reaction: type });
    }
    expect(calls.reactions.at(-1)).toMatchObject({
      channel: 'imessage',
      reaction: { type: 'question' },
      remove: true,
      message: { fromMe: true },
    });
    // An emoji tapback (iOS 17+/macOS 14+) passes through to the instance; words do not.
    const emoji = await t.request('POST', `/v1/messages/${id}/reactions`, { type: '🎉' });
    expect(emoji.statusCode).toBe(200);
    expect(bodyOf(emoji).data).toEqual({ messageId: id, reaction: '🎉' });
    expect(calls.reactions.at(-1)).toMatchObject({ reaction: { type: 'emoji', emoji: '🎉' } });
    for (const type of ['banana', '🎉🎉', '-🎉']) {
      const unknown = await t.request('POST', `/v1/messages/${id}/reactions`, { type });
      expect(unknown.statusCode, type).toBe(400);
      expect(errorCodeOf(unknown)).toBe('VALIDATION_ERROR');
    }
  });

  it('maps tapbacks to emoji on whatsapp and passes other strings through', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const id = await t.sendOk({
      to: WHATSAPP,
      content: text,
      routing: { preference: ['whatsapp'] },
    });
    await t.waitForStatus(id, 'read');
    const expected: Record<string, string> = {
      love: '❤️',
      like: '👍',
      dislike: '👎',
      laugh: '😂',
      emphasize: '‼️',
      question: '❓',
      '🎉': '🎉',
      '-love': '-love',
    };
    for (const [type, applied] of Object.entries(expected)) {
      const response = await t.request('POST', `/v1/messages/${id}/reactions`, { type });
      expect(response.statusCode, type).toBe(200);
      expect(bodyOf(response).data).toEqual({ messageId: id, reaction: applied });
    }
    expect(calls.reactions.map((call) => [call.reaction, call.remove])).toContainEqual([
      { type: 'emoji', emoji: '🎉' },
      false,
    ]);
    expect(calls.reactions.at(-1)).toMatchObject({ channel: 'whatsapp', remove: true });
  });

  it('answers CHANNEL_NOT_SUPPORTED on sms, MISSING_EXTERNAL_ID before a provider id exists, 404 unknown', async () => {
    const t = await buildMessagingApp();
    const sms = await t.sendOk({ to: SMS_ONLY, content: text });
    await t.waitForStatus(sms, 'delivered');
    const onSms = await t.request('POST', `/v1/messages/${sms}/reactions`, { type: 'love' });
    expect(onSms.statusCode).toBe(400);
    expect(errorCodeOf(onSms)).toBe('CHANNEL_NOT_SUPPORTED');
    const scheduledAt = new Date(t.clock.now() + 3_600_000).toISOString();
    const later = await t.sendOk({ to: READS, content: text, scheduledAt });
    expect(
      errorCodeOf(await t.request('POST', `/v1/messages/${later}/reactions`, { type: 'love' })),
    ).toBe('MISSING_EXTERNAL_ID');
    expect(
      (await t.request('POST', `/v1/messages/${UNKNOWN}/reactions`, { type: 'love' })).statusCode,
    ).toBe(404);
  });
});

describe('DELETE /v1/messages/:id', () => {
  it('soft-deletes: {id, deleted: true}, message.deleted, then 404 everywhere and 409 ALREADY_DELETED', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: FAILS, content: text, routing: { fallback: false } });
    await t.waitForStatus(id, 'failed');
    const response = await t.request('DELETE', `/v1/messages/${id}`);
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response).data).toEqual({ id, deleted: true });
    expect(t.eventTypes(id).at(-1)).toBe('message.deleted');

    for (const [method, url, payload] of [
      ['GET', `/v1/messages/${id}`, undefined],
      ['POST', `/v1/messages/${id}/retry`, undefined],
      ['POST', `/v1/messages/${id}/unsend`, undefined],
      ['PUT', `/v1/messages/${id}`, { text: 'x' }],
      ['POST', `/v1/messages/${id}/reactions`, { type: 'love' }],
      ['DELETE', `/v1/messages/${id}/schedule`, undefined],
    ] as const) {
      const answer = await t.request(method, url, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(errorCodeOf(answer)).toBe('NOT_FOUND');
    }
    const list = bodyOf<{ data: { messages: Message[] } }>(await t.request('GET', '/v1/messages'));
    expect(list.data.messages.map((message) => message.id)).not.toContain(id);
    const again = await t.request('DELETE', `/v1/messages/${id}`);
    expect(again.statusCode).toBe(409);
    expect(errorCodeOf(again)).toBe('ALREADY_DELETED');
    expect((await t.request('DELETE', `/v1/messages/${UNKNOWN}`)).statusCode).toBe(404);
  });
});

describe('scheduled messages: list and cancel', () => {
  it('lists scheduled messages soonest first with pagination, and cancels one', async () => {
    const t = await buildMessagingApp();
    const at = (minutes: number) => new Date(t.clock.now() + minutes * 60_000).toISOString();
    const late = await t.sendOk({ to: READS, content: text, scheduledAt: at(90) });
    const soon = await t.sendOk({ to: READS, content: text, scheduledAt: at(10) });
    const middle = await t.sendOk({ to: READS, content: text, scheduledAt: at(30) });
    await t.sendOk({ to: READS, content: text });

    const first = bodyOf<{
      data: { messages: Message[]; pagination: { hasMore: boolean; nextCursor: string } };
    }>(await t.request('GET', '/v1/messages/scheduled?limit=2')).data;
    expect(first.messages.map((message) => message.id)).toEqual([soon, middle]);
    expect(first.pagination.hasMore).toBe(true);
    const second = bodyOf<{
      data: { messages: Message[]; pagination: { hasMore: boolean; nextCursor: null } };
    }>(
      await t.request(
        'GET',
        `/v1/messages/scheduled?limit=2&cursor=${first.pagination.nextCursor}`,
      ),
    ).data;
    expect(second.messages.map((message) => message.id)).toEqual([late]);
    expect(second.pagination).toEqual({ hasMore: false, nextCursor: null });

    const cancel = await t.request('DELETE', `/v1/messages/${middle}/schedule`);
    expect(cancel.statusCode).toBe(200);
    const cancelled = bodyOf<{ data: Message }>(cancel).data;
    expect(cancelled).toMatchObject({ id: middle, status: 'cancelled' });
    expect(timelineOf(cancelled)).toEqual(['scheduled:-', 'cancelled:-']);
    expect(t.eventTypes(middle)).toEqual(['message.scheduled', 'message.schedule_cancelled']);
    const after = bodyOf<{ data: { messages: Message[] } }>(
      await t.request('GET', '/v1/messages/scheduled'),
    ).data;
    expect(after.messages.map((message) => message.id)).toEqual([soon, late]);

    const again = await t.request('DELETE', `/v1/messages/${middle}/schedule`);
    expect(again.statusCode).toBe(400);
    expect(errorCodeOf(again)).toBe('NOT_SCHEDULED');
  });

  it('answers NOT_SCHEDULED for a message that is not scheduled', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: READS, content: text });
    const response = await t.request('DELETE', `/v1/messages/${id}/schedule`);
    expect(response.statusCode).toBe(400);
    expect(errorCodeOf(response)).toBe('NOT_SCHEDULED');
  });
});

describe('customer isolation', () => {
  it('answers another customer’s message exactly like a missing one', async () => {
    const t = await buildMessagingApp();
    const theirs = await otherCustomer(t.app, t.instanceId, '+14155550188');
    const response = await t.send({ to: DELIVERED, content: text }, theirs.key);
    const id = bodyOf<{ data: { id: string } }>(response).data.id;
    await t.waitForStatus(id, 'delivered').catch(() => undefined);

    const cases = [
      ['GET', `/v1/messages/${id}`, undefined],
      ['POST', `/v1/messages/${id}/retry`, undefined],
      ['POST', `/v1/messages/${id}/unsend`, undefined],
      ['PUT', `/v1/messages/${id}`, { text: 'x' }],
      ['POST', `/v1/messages/${id}/reactions`, { type: 'love' }],
      ['DELETE', `/v1/messages/${id}`, undefined],
      ['DELETE', `/v1/messages/${id}/schedule`, undefined],
    ] as const;
    for (const [method, url, payload] of cases) {
      const foreign = await t.request(method, url, payload);
      const missing = await t.request(method, url.replace(id, UNKNOWN), payload);
      expect(foreign.statusCode, `${method} ${url}`).toBe(404);
      expect(bodyOf(foreign).error).toEqual({
        code: 'NOT_FOUND',
        message: (bodyOf(missing).error as { message: string }).message.replace(UNKNOWN, id),
      });
    }
    const mine = bodyOf<{ data: { messages: Message[] } }>(await t.request('GET', '/v1/messages'));
    expect(mine.data.messages).toEqual([]);
    // The owner still sees it, undeleted.
    const owner = await t.request('GET', `/v1/messages/${id}`, undefined, theirs.key);
    expect(owner.statusCode).toBe(200);
  });
});
