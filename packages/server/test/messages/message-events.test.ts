import type { AdminMessageDetail, MessageEventList } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { waitFor } from '../support/wait-for';
import { createWebhook, FAST_DELIVERY_ENV, receiver } from '../webhooks/webhook-test-support';
import { buildMessagingApp, type MessagingApp, otherCustomer } from './messaging-fixture';

const UNKNOWN = 'msg_01936f1c-8a9e-7c3b-9d2e-4f5a6b7c8d9e';

/** `GET /admin/v1/<path>` with the operator token. */
function asOperator(t: MessagingApp, path: string) {
  return t.app.inject({ method: 'GET', url: `/admin/v1/${path}`, headers: adminHeaders });
}

/** Every event of a message through the customer's route, page after page. */
async function allEvents(t: MessagingApp, id: string, limit: number) {
  const events: MessageEventList['events'] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${cursor}`;
    const page = expectSuccess<MessageEventList>(
      await t.request('GET', `/v1/messages/${id}/events?limit=${limit}${query}`),
    );
    events.push(...page.events);
    cursor = page.pagination.nextCursor;
  } while (cursor !== null);
  return events;
}

describe("GET /v1/messages/{id}/events and the operator's message", () => {
  it("lists a message's events oldest first, paged, for its customer and the operator", async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: '+14155550102', content: { text: 'hello' } });
    await t.waitForStatus(id, 'read');
    const types = t.eventTypes(id);
    expect(types.slice(0, 2)).toEqual(['message.queued', 'message.sent']);

    const page = expectSuccess<MessageEventList>(
      await t.request('GET', `/v1/messages/${id}/events`),
    );
    expect(page.events.map((event) => event.type)).toEqual(types);
    expect(page.pagination).toEqual({ hasMore: false, nextCursor: null });
    expect(page.events[0]).toMatchObject({ webhooks: [], callbackDeliveries: [] });
    expect(page.events[0]?.id).toMatch(/^evt_/);
    // One at a time, the cursor walks the same events in the same order.
    expect((await allEvents(t, id, 1)).map((event) => event.id)).toEqual(
      page.events.map((event) => event.id),
    );

    const operator = expectSuccess<MessageEventList>(await asOperator(t, `messages/${id}/events`));
    expect(operator).toEqual(page);
    const detail = expectSuccess<AdminMessageDetail>(await asOperator(t, `messages/${id}`));
    expect(detail).toMatchObject({ id, customerId: t.customerId, status: 'read' });
    const routing = expectSuccess(await t.request('GET', `/v1/messages/${id}/routing`));
    expect(detail.routing).toEqual(routing);
  });

  it("answers NOT_FOUND for another customer's message, an unknown id and a bad cursor's 400", async () => {
    const t = await buildMessagingApp();
    const other = await otherCustomer(t.app, t.instanceId, '+14155550177');
    const foreign = expectSuccess<{ id: string }>(
      await t.send({ to: '+14155550103', content: { text: 'hi' } }, other.key),
      202,
    ).id;
    expectFailure(await t.request('GET', `/v1/messages/${foreign}/events`), 404, 'NOT_FOUND');
    expectFailure(await t.request('GET', `/v1/messages/${UNKNOWN}/events`), 404, 'NOT_FOUND');
    expectFailure(await asOperator(t, `messages/${UNKNOWN}`), 404, 'NOT_FOUND');
    expectFailure(await asOperator(t, `messages/${UNKNOWN}/events`), 404, 'NOT_FOUND');
    // The operator opens any customer's message; its events are that customer's.
    const detail = expectSuccess<AdminMessageDetail>(await asOperator(t, `messages/${foreign}`));
    expect(detail.customerId).toBe(other.customerId);
    const own = await t.sendOk({ to: '+14155550102', content: { text: 'mine' } });
    for (const query of ['?cursor=nonsense', '?limit=0', '?limit=101', '?sort=desc']) {
      expectFailure(
        await t.request('GET', `/v1/messages/${own}/events${query}`),
        400,
        'VALIDATION_ERROR',
      );
    }
    // A customer key never reaches the operator's routes.
    expect((await t.request('GET', `/admin/v1/messages/${own}`)).statusCode).toBe(401);
    // A deleted message's events are gone with it.
    expect((await t.request('DELETE', `/v1/messages/${own}`)).statusCode).toBe(200);
    expectFailure(await t.request('GET', `/v1/messages/${own}/events`), 404, 'NOT_FOUND');
    expectFailure(await asOperator(t, `messages/${own}/events`), 404, 'NOT_FOUND');
  });

  it('shows a failed webhook attempt and its redelivery under the event, both attempts', async () => {
    const t = await buildMessagingApp({ env: FAST_DELIVERY_ENV });
    let answer = 400;
    const hook = await receiver((_request, response) => void response.writeHead(answer).end());
    const webhook = await createWebhook(
      t.app,
      { authorization: `Bearer ${t.key}` },
      { url: `${hook.origin}/hook`, events: ['message.sent'] },
    );
    const id = await t.sendOk({ to: '+14155550102', content: { text: 'hello' } });
    await t.waitForStatus(id, 'read');

    const sentEvent = async () => {
      const page = expectSuccess<MessageEventList>(
        await t.request('GET', `/v1/messages/${id}/events`),
      );
      return page.events.find((event) => event.type === 'message.sent');
    };
    // A 4xx is terminal: the first attempt fails and nothing is retried.
    const failed = await waitFor(async () => {
      const event = await sentEvent();
      return event?.webhooks[0]?.attempts[0]?.status === 'failed' && event;
    });
    const [delivery] = failed.webhooks;
    expect(delivery).toMatchObject({ webhookId: webhook.id, url: `${hook.origin}/hook` });
    expect(delivery?.attempts).toHaveLength(1);
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: 400, trigger: 'event', attempt: 1 });
    const firstAttempt = delivery?.attempts[0]?.id ?? '';

    answer = 200;
    const redelivered = await t.request(
      'POST',
      `/v1/webhooks/${webhook.id}/deliveries/${firstAttempt}/redeliver`,
    );
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    const both = await waitFor(async () => {
      const event = await sentEvent();
      const attempts = event?.webhooks[0]?.attempts ?? [];
      return attempts[1]?.status === 'delivered' && attempts;
    });
    expect(both.map((attempt) => [attempt.trigger, attempt.status, attempt.statusCode])).toEqual([
      ['event', 'failed', 400],
      ['redelivery', 'delivered', 200],
    ]);
    expect(both[1]?.durationMs).toEqual(expect.any(Number));
    // Events the webhook does not subscribe to have no delivery; the operator sees the same.
    const page = expectSuccess<MessageEventList>(await asOperator(t, `messages/${id}/events`));
    const queued = page.events.find((event) => event.type === 'message.queued');
    expect(queued?.webhooks).toEqual([]);
    expect(
      page.events.find((event) => event.type === 'message.sent')?.webhooks[0]?.attempts,
    ).toEqual(both);
  });
});
