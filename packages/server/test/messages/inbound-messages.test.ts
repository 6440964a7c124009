import type { Message } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../support/test-app';
import { buildMessagingApp, SENDER } from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

const CONTACT = '+14155550109';

describe('inbound messages among messages', () => {
  it('lists inbound messages with outbound ones; replies and reactions address them at the provider', async () => {
    const { registry, calls } = recordingRegistry();
    const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
    const outbound = await t.sendOk({ to: CONTACT, content: { text: 'Dinner at 8?' } });
    await t.waitForStatus(outbound, 'read');
    t.clock.advance(1_000);
    const received = await t.request('POST', '/v1/sandbox/inbound-messages', {
      channel: 'imessage',
      from: CONTACT,
      to: SENDER,
      text: 'Sounds good',
    });
    expect(received.statusCode, received.body).toBe(200);
    const inboundId = bodyOf<{ data: { messageId: string } }>(received).data.messageId;

    const list = bodyOf<{ data: { messages: Message[] } }>(await t.request('GET', '/v1/messages'))
      .data.messages;
    expect(list.map((message) => [message.id, message.direction])).toEqual([
      [inboundId, 'inbound'],
      [outbound, 'outbound'],
    ]);
    expect(list[0]).toMatchObject({ from: CONTACT, to: SENDER, content: { text: 'Sounds good' } });
    const toMe = bodyOf<{ data: { messages: Message[] } }>(
      await t.request('GET', `/v1/messages?to=${encodeURIComponent(SENDER)}`),
    ).data.messages;
    expect(toMe.map((message) => message.id)).toEqual([inboundId]);

    const reaction = await t.request('POST', `/v1/messages/${inboundId}/reactions`, {
      type: 'like',
    });
    expect(reaction.statusCode, reaction.body).toBe(200);
    expect(calls.reactions.at(-1)).toMatchObject({
      channel: 'imessage',
      from: SENDER,
      message: { fromMe: false, conversation: { type: 'address', address: CONTACT } },
    });

    const reply = await t.sendOk({ to: CONTACT, content: { text: 'See you' }, replyTo: inboundId });
    await t.waitForStatus(reply, 'read');
    expect(calls.sends.find((send) => send.messageId === reply)).toMatchObject({
      replyTo: { fromMe: false },
    });

    // Only messages you sent can be unsent or edited.
    const unsend = await t.request('POST', `/v1/messages/${inboundId}/unsend`);
    expect(bodyOf<{ error: { code: string } }>(unsend).error.code).toBe('INVALID_STATUS');

    // An inbound message can be deleted like any other.
    expect((await t.request('DELETE', `/v1/messages/${inboundId}`)).statusCode).toBe(200);
    expect(t.events.at(-1)).toMatchObject({
      type: 'message.deleted',
      data: { messageId: inboundId, from: CONTACT, to: SENDER },
    });
    expect((await t.request('GET', `/v1/messages/${inboundId}`)).statusCode).toBe(404);
  });
});
