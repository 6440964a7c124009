import type { Instance, MessageRouting, RoutingStep } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { waitFor } from '../support/wait-for';
import {
  buildMessagingApp,
  FINAL_STATUSES,
  type MessagingApp,
  otherCustomer,
  SENDER,
} from './messaging-fixture';

const text = { text: 'Your order #1842 has shipped' };

/** `GET /v1/messages/:id/routing` with the customer's key, expecting 200. */
async function traceOf(t: MessagingApp, id: string): Promise<MessageRouting> {
  return expectSuccess<MessageRouting>(await t.request('GET', `/v1/messages/${id}/routing`));
}

/** The decision, reason and channel of each step: the story a trace tells. */
function story(steps: readonly RoutingStep[]): string[] {
  return steps.map((step) => `${step.decision}:${step.reason}:${step.channel ?? '-'}`);
}

describe('the routing trace of a message', () => {
  it('shows the iMessage refusal and the SMS fallback that took the message, with reasons and ids', async () => {
    const t = await buildMessagingApp();
    // Simulator DD 20–29: the iMessage attempt fails, SMS takes the message.
    const id = await t.sendOk({ to: '+14155550123', content: text });
    const message = await t.waitForStatus(id, 'delivered');
    const trace = await traceOf(t, id);
    expect(trace.messageId).toBe(id);
    expect(story(trace.steps)).toEqual([
      'tried:reachable:imessage',
      'refused:provider_refused:imessage',
      'tried:reachable:sms',
      'accepted:provider_accepted:sms',
    ]);
    const [tried, refused, fallback, accepted] = trace.steps;
    expect(trace.steps.map((step) => step.sequence)).toEqual([1, 2, 3, 4]);
    expect(tried).toMatchObject({ attempt: 0, instanceId: t.instanceId, code: null });
    expect(tried?.capability).toMatchObject({ reachable: true });
    expect(refused).toMatchObject({ code: 'IMESSAGE_SEND_FAILED', externalId: null });
    expect(refused?.detail).not.toBe('');
    expect(fallback).toMatchObject({ instanceId: t.instanceId });
    expect(accepted).toMatchObject({ externalId: message.externalId, code: null });
    expect(t.eventTypes(id)).toContain('message.fallback');
  });

  it('says a channel was skipped on a cached capability answer, with the answer’s age', async () => {
    const t = await buildMessagingApp();
    // Simulator DD 10–19: not on iMessage. The first send asks the provider and caches the answer.
    const first = await t.sendOk({ to: '+14155550112', content: text });
    await t.waitForStatus(first, 'delivered');
    t.clock.advance(42_000);
    const id = await t.sendOk({ to: '+14155550112', content: text });
    await t.waitForStatus(id, 'delivered');
    const trace = await traceOf(t, id);
    expect(story(trace.steps)).toEqual([
      'skipped:recipient_unreachable:imessage',
      'tried:reachable:sms',
      'accepted:provider_accepted:sms',
    ]);
    expect(trace.steps[0]?.capability).toEqual({
      source: 'cache',
      ageMs: 42_000,
      reachable: false,
    });
    expect(trace.steps[0]?.detail).toBe('+14155550112 is not reachable on imessage');
  });

  it('shows the delivery round of a retry and the fallback left out when routing.fallback is false', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: '+14155550124', content: text, routing: { fallback: false } });
    await t.waitForStatus(id, 'failed');
    const trace = await traceOf(t, id);
    expect(story(trace.steps)).toEqual([
      'tried:reachable:imessage',
      'refused:provider_refused:imessage',
      'skipped:fallback_disabled:sms',
      'failed:no_channel_left:imessage',
    ]);
    expect(trace.steps.at(-1)?.code).toBe('IMESSAGE_SEND_FAILED');
    expectSuccess(await t.request('POST', `/v1/messages/${id}/retry`), 202);
    await t.waitFor(id, (m) => m.retryCount === 1 && FINAL_STATUSES.includes(m.status));
    const retried = await traceOf(t, id);
    expect(retried.steps).toHaveLength(8);
    expect(retried.steps.slice(4).map((step) => step.attempt)).toEqual([1, 1, 1, 1]);
  });

  it('records an opt-out that stopped a scheduled send before any channel', async () => {
    const t = await buildMessagingApp();
    const contact = '+14155550103';
    const scheduledAt = new Date(t.clock.now() + 120_000).toISOString();
    const id = await t.sendOk({ to: contact, content: text, scheduledAt });
    expectSuccess(
      await t.request('POST', '/v1/sandbox/inbound-messages', {
        channel: 'imessage',
        from: contact,
        to: SENDER,
        text: 'STOP',
      }),
    );
    expect(story((await traceOf(t, id)).steps)).toEqual([]);
    t.clock.advance(180_000);
    await t.app.services.messages.queueDueMessages();
    await t.waitForStatus(id, 'failed');
    const trace = await traceOf(t, id);
    expect(story(trace.steps)).toEqual(['blocked:opted_out:-']);
    expect(trace.steps[0]).toMatchObject({ code: 'RECIPIENT_OPTED_OUT', instanceId: null });
  });

  it('records the wait a paced instance imposed', async () => {
    const t = await buildMessagingApp();
    expectSuccess<Instance>(
      await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/instances/${t.instanceId}`,
        headers: adminHeaders,
        // One a second: the second send waits unless its acceptance came a whole second after the
        // first's (at 5 a second, 200 ms, a loaded machine's acceptance was seen to take longer).
        payload: { config: { pacing: { perSecond: 1, concurrency: 1 } } },
      }),
    );
    const first = await t.sendOk({ to: '+14155550103', content: text });
    const second = await t.sendOk({ to: '+14155550104', content: text });
    await t.waitForStatus(first, 'sent', 'delivered', 'read');
    await t.waitForStatus(second, 'sent', 'delivered', 'read');
    const trace = await traceOf(t, second);
    const wait = trace.steps[0];
    expect(wait).toMatchObject({
      decision: 'waited',
      reason: 'pacing',
      instanceId: t.instanceId,
      channel: null,
    });
    expect(wait?.waitMs).toBeGreaterThan(0);
    expect(wait?.waitMs).toBeLessThanOrEqual(1000);
    expect(story(trace.steps).slice(1)).toEqual([
      'tried:reachable:imessage',
      'accepted:provider_accepted:imessage',
    ]);
  });

  it('answers 404 to another customer’s key and for an unknown id; an inbound message has no steps', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: '+14155550103', content: text });
    await t.waitForStatus(id, 'sent', 'delivered', 'read');
    const other = await otherCustomer(t.app, t.instanceId, '+14155550188');
    expectFailure(
      await t.request('GET', `/v1/messages/${id}/routing`, undefined, other.key),
      404,
      'NOT_FOUND',
    );
    expectFailure(await t.request('GET', '/v1/messages/msg_unknown/routing'), 404, 'NOT_FOUND');
    const inbound = expectSuccess<{ messageId: string }>(
      await t.request('POST', '/v1/sandbox/inbound-messages', {
        channel: 'imessage',
        from: '+14155550177',
        to: SENDER,
        text: 'hello',
      }),
    );
    const inboundTrace = await waitFor(async () => {
      const response = await t.request('GET', `/v1/messages/${inbound.messageId}/routing`);
      return response.statusCode === 200
        ? (response.json() as { data: MessageRouting })
        : undefined;
    });
    expect(inboundTrace.data.steps).toEqual([]);
  });
});
