import type { Message, SendMessageInput } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { openEventStream } from '../support/event-stream-client';
import { buildMessagingApp, FINAL_STATUSES, SENDER, timelineOf } from './messaging-fixture';

/** One row of the simulator table (docs/simulator.md), as a send and what it must lead to. */
interface Row {
  name: string;
  send: SendMessageInput;
  final: Message['status'];
  timeline: string[];
  events: string[];
  expect?: Partial<Message>;
}

const text = { text: 'Your order #1842 has shipped' };

const ROWS: Row[] = [
  {
    name: 'DD 00–09: iMessage sent → delivered → read',
    send: { to: '+14155550103', content: text },
    final: 'read',
    timeline: ['queued:-', 'sent:imessage', 'delivered:imessage', 'read:imessage'],
    events: ['message.queued', 'message.sent', 'message.delivered', 'message.read'],
    expect: { channel: 'imessage', fallbackTriggered: false },
  },
  {
    name: 'DD 10–19: iMessage unreachable → fallback (unavailable) → SMS sent → delivered',
    send: { to: '+14155550112', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:sms', 'delivered:sms'],
    events: ['message.queued', 'message.fallback', 'message.sent', 'message.delivered'],
    expect: { channel: 'sms', fallbackTriggered: true },
  },
  {
    name: 'DD 20–29: the iMessage attempt fails → fallback (send_failed) → SMS sent → delivered',
    send: { to: '+14155550123', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:sms', 'delivered:sms'],
    events: ['message.queued', 'message.fallback', 'message.sent', 'message.delivered'],
    expect: { channel: 'sms', fallbackTriggered: true },
  },
  {
    name: 'DD 20–29 with fallback: false: the message fails',
    send: { to: '+14155550124', content: text, routing: { fallback: false } },
    final: 'failed',
    timeline: ['queued:-', 'failed:imessage'],
    events: ['message.queued', 'message.failed'],
    expect: { channel: 'imessage', fallbackTriggered: false, errorCode: 'IMESSAGE_SEND_FAILED' },
  },
  {
    name: 'DD 30–39: every channel fails → failed with errorCode and errorMessage',
    send: { to: '+14155550135', content: text },
    final: 'failed',
    timeline: ['queued:-', 'failed:sms'],
    events: ['message.queued', 'message.fallback', 'message.failed'],
    expect: { channel: 'sms', fallbackTriggered: true, errorCode: 'IMESSAGE_SEND_FAILED' },
  },
  {
    name: 'DD 31: the first attempt fails on every channel',
    send: { to: '+14155550131', content: text },
    final: 'failed',
    timeline: ['queued:-', 'failed:sms'],
    events: ['message.queued', 'message.fallback', 'message.failed'],
    expect: { errorCode: 'IMESSAGE_SEND_FAILED' },
  },
  {
    name: 'DD 50–59: Focus mode: delivered, never read',
    send: { to: '+14155550155', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:imessage', 'delivered:imessage'],
    events: ['message.queued', 'message.sent', 'message.delivered'],
    expect: { channel: 'imessage' },
  },
  {
    name: 'DD 60–69 with whatsapp first: WhatsApp sent → delivered → read',
    send: { to: '+14155550166', content: text, routing: { preference: ['whatsapp'] } },
    final: 'read',
    timeline: ['queued:-', 'sent:whatsapp', 'delivered:whatsapp', 'read:whatsapp'],
    events: ['message.queued', 'message.sent', 'message.delivered', 'message.read'],
    expect: { channel: 'whatsapp', fallbackTriggered: false },
  },
  {
    name: 'DD 60–69 with the default routing: falls back to SMS (unavailable)',
    send: { to: '+14155550167', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:sms', 'delivered:sms'],
    events: ['message.queued', 'message.fallback', 'message.sent', 'message.delivered'],
    expect: { channel: 'sms', fallbackTriggered: true },
  },
  {
    name: 'DD 70–79: delivered normally (edits fail, see the edit tests)',
    send: { to: '+14155550172', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:imessage', 'delivered:imessage'],
    events: ['message.queued', 'message.sent', 'message.delivered'],
  },
  {
    name: 'any other valid number: iMessage sent → delivered',
    send: { to: '+447700900123', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:imessage', 'delivered:imessage'],
    events: ['message.queued', 'message.sent', 'message.delivered'],
  },
  {
    name: 'any other valid number over SMS: sent → delivered',
    send: { to: '+447700900124', content: text, routing: { preference: ['sms'] } },
    final: 'delivered',
    timeline: ['queued:-', 'sent:sms', 'delivered:sms'],
    events: ['message.queued', 'message.sent', 'message.delivered'],
  },
  {
    name: 'e-mail style address: iMessage only, delivered',
    send: { to: 'ada@example.com', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:imessage', 'delivered:imessage'],
    events: ['message.queued', 'message.sent', 'message.delivered'],
  },
  {
    name: 'WhatsApp group: sent → delivered',
    send: { to: '120363123456789012@g.us', content: text },
    final: 'delivered',
    timeline: ['queued:-', 'sent:whatsapp', 'delivered:whatsapp'],
    events: ['message.queued', 'message.sent', 'message.delivered'],
  },
];

describe('the simulator table, observed through the timeline and the event stream', () => {
  it('runs every row to its documented outcome', async () => {
    const t = await buildMessagingApp();
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openEventStream(baseUrl, t.key);

    const sent = [];
    for (const row of ROWS) sent.push({ row, id: await t.sendOk(row.send) });
    const finals = [];
    for (const { row, id } of sent) {
      finals.push({
        row,
        id,
        message: await t.waitFor(
          id,
          (m) => FINAL_STATUSES.includes(m.status) && m.status === row.final,
        ),
      });
    }
    // Everything else has settled: the Focus-mode message would have been read by now.
    await t.waitFor(sent[0]?.id ?? '', (m) => m.status === 'read');

    for (const { row, id, message } of finals) {
      const current = await t.get(id);
      expect(current.status, row.name).toBe(row.final);
      expect(timelineOf(current), row.name).toEqual(row.timeline);
      if (row.expect) expect(current, row.name).toMatchObject(row.expect);
      expect(message.from).toBe(SENDER);
      // Returns as soon as they are all there; a loaded host can take seconds to stream them.
      const deadline = Date.now() + 10_000;
      while (stream.eventsOf(id).length < row.events.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(
        stream.eventsOf(id).map((event) => event.type),
        row.name,
      ).toEqual(row.events);
    }
  });

  it('reports fallbacks with their channels and reason, and failures with their error', async () => {
    const t = await buildMessagingApp();
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openEventStream(baseUrl, t.key);
    const unavailable = await t.sendOk({ to: '+14155550114', content: text });
    const failedAttempt = await t.sendOk({ to: '+14155550125', content: text });
    const failed = await t.sendOk({ to: '+14155550136', content: text });
    await t.waitForStatus(unavailable, 'delivered');
    await t.waitForStatus(failedAttempt, 'delivered');
    const failedMessage = await t.waitForStatus(failed, 'failed');
    expect(failedMessage.errorMessage).toMatch(/sms/);

    const deadline = Date.now() + 10_000;
    while (stream.eventsOf(failed).length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const fallbackOf = (id: string) =>
      stream.eventsOf(id).find((event) => event.type === 'message.fallback');
    expect(fallbackOf(unavailable)).toMatchObject({
      data: { fromChannel: 'imessage', toChannel: 'sms', reason: 'unavailable', channel: 'sms' },
    });
    expect(fallbackOf(failedAttempt)).toMatchObject({
      data: { fromChannel: 'imessage', toChannel: 'sms', reason: 'send_failed', channel: 'sms' },
    });
    const failure = stream.eventsOf(failed).find((event) => event.type === 'message.failed');
    expect(failure).toMatchObject({
      data: {
        messageId: failed,
        status: 'failed',
        channel: 'sms',
        errorCode: 'IMESSAGE_SEND_FAILED',
        errorMessage: failedMessage.errorMessage,
      },
    });
    const sentEvent = stream.eventsOf(unavailable).find((event) => event.type === 'message.sent');
    expect(sentEvent).toMatchObject({
      data: {
        status: 'sent',
        channel: 'sms',
        externalMessageId: expect.stringMatching(/^SM[0-9a-f]{32}$/),
      },
    });
  });
});
