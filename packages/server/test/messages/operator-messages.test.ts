import type { AdminMessageList, MessageList, OperatorStats } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../support/admin-helpers';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { waitFor } from '../support/wait-for';
import { createWebhook, receiver } from '../webhooks/webhook-test-support';
import {
  buildMessagingApp,
  type MessagingApp,
  otherCustomer,
  SECOND_SENDER,
  SENDER,
} from './messaging-fixture';

const text = { text: 'hello' };

/** `GET /admin/v1/<path>` with the operator token. */
function asOperator(t: MessagingApp, path: string) {
  return t.app.inject({ method: 'GET', url: `/admin/v1/${path}`, headers: adminHeaders });
}

/** The ids of the operator's list for `query`. */
async function operatorIds(t: MessagingApp, query: string): Promise<string[]> {
  const page = expectSuccess<AdminMessageList>(await asOperator(t, `messages${query}`));
  return page.messages.map((message) => message.id);
}

/** The ids of the customer's list for `query`. */
async function customerIds(t: MessagingApp, query: string): Promise<string[]> {
  const page = expectSuccess<MessageList>(await t.request('GET', `/v1/messages${query}`));
  return page.messages.map((message) => message.id);
}

/** Two customers' messages, a minute apart: Acme's read and fallback ones, then Other's. */
async function twoCustomers(t: MessagingApp) {
  const other = await otherCustomer(t.app, t.instanceId, '+14155550177');
  const read = await t.sendOk({ to: '+14155550102', content: text });
  t.clock.advance(60_000);
  const fallback = await t.sendOk({ to: '+14155550111', content: text, from: SECOND_SENDER });
  t.clock.advance(60_000);
  const sent = await t.send({ to: '+14155550103', content: text }, other.key);
  const foreign = expectSuccess<{ id: string }>(sent, 202).id;
  await t.waitForStatus(read, 'read');
  await t.waitForStatus(fallback, 'delivered');
  return { other, read, fallback, foreign };
}

describe('GET /admin/v1/messages', () => {
  it("lists every customer's messages newest first, each with its customerId, paged", async () => {
    const t = await buildMessagingApp();
    const { other, read, fallback, foreign } = await twoCustomers(t);

    const all = expectSuccess<AdminMessageList>(await asOperator(t, 'messages'));
    expect(all.messages.map((message) => [message.id, message.customerId])).toEqual([
      [foreign, other.customerId],
      [fallback, t.customerId],
      [read, t.customerId],
    ]);
    const first = expectSuccess<AdminMessageList>(await asOperator(t, 'messages?limit=2'));
    expect(first.pagination.hasMore).toBe(true);
    expect(await operatorIds(t, `?limit=2&cursor=${first.pagination.nextCursor}`)).toEqual([read]);

    expect(await operatorIds(t, `?customerId=${other.customerId}`)).toEqual([foreign]);
    expect(await operatorIds(t, `?customerId=${t.customerId}&status=read`)).toEqual([read]);
    expect(await operatorIds(t, `?from=${encodeURIComponent(SECOND_SENDER)}`)).toEqual([fallback]);
    expect(await operatorIds(t, '?channel=sms')).toEqual([fallback]);
    expect(await operatorIds(t, `?to=${encodeURIComponent('+14155550103')}`)).toEqual([foreign]);
  });

  it('filters by creation time: after is inclusive, before exclusive', async () => {
    const t = await buildMessagingApp();
    const { read, fallback, foreign } = await twoCustomers(t);
    const at = async (id: string) => (await t.get(id)).createdAt;
    const middle = await at(fallback);
    expect(await operatorIds(t, `?createdAfter=${middle}`)).toEqual([foreign, fallback]);
    expect(await operatorIds(t, `?createdBefore=${middle}`)).toEqual([read]);
    expect(await operatorIds(t, `?createdAfter=${middle}&createdBefore=${middle}`)).toEqual([]);
    // The customer's list has the same filters, and still only its own messages.
    expect(await customerIds(t, `?createdAfter=${middle}`)).toEqual([fallback]);
    expect(await customerIds(t, `?from=${encodeURIComponent(SENDER)}`)).toEqual([read]);
    expect(await customerIds(t, '?channel=imessage')).toEqual([read]);
    expect(await customerIds(t, '?channel=whatsapp')).toEqual([]);
  });

  it('refuses bad filter values in the error envelope, and a customer key', async () => {
    const t = await buildMessagingApp();
    for (const query of [
      '?channel=fax',
      '?createdAfter=yesterday',
      '?createdBefore=2026-13-01T00:00:00Z',
      '?customerId=acme',
      '?status=lost',
      '?limit=0',
      '?cursor=nonsense',
      '?sort=asc',
    ]) {
      expectFailure(await asOperator(t, `messages${query}`), 400, 'VALIDATION_ERROR');
    }
    expectFailure(await asOperator(t, 'messages?from=0415'), 400, 'INVALID_PHONE_NUMBER');
    for (const query of ['?channel=fax', '?createdAfter=yesterday', '?customerId=x']) {
      expectFailure(await t.request('GET', `/v1/messages${query}`), 400, 'VALIDATION_ERROR');
    }
    const withKey = await t.request('GET', '/admin/v1/messages');
    expect(withKey.statusCode).toBe(401);
  });
});

describe('GET /admin/v1/stats', () => {
  it('counts the last hour from the database, and nothing once it has passed', async () => {
    const t = await buildMessagingApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    await twoCustomers(t);
    const failed = await t.sendOk({
      to: '+14155550133',
      content: text,
      routing: { fallback: false },
    });
    await t.waitForStatus(failed, 'failed');
    const hook = await receiver((_request, response) => void response.writeHead(500).end());
    const webhook = await createWebhook(
      t.app,
      { authorization: `Bearer ${t.key}` },
      {
        url: `${hook.origin}/hook`,
        events: ['message.sent'],
      },
    );
    const tested = await t.request('POST', `/v1/webhooks/${webhook.id}/test`);
    expect(tested.statusCode, tested.body).toBe(200);

    // The other customer's message may still be on its way: until it is read.
    const stats = await waitFor(async () => {
      const counted = expectSuccess<OperatorStats>(await asOperator(t, 'stats'));
      return counted.messages.delivered === 3 && counted;
    });
    expect(stats.window).toBe('1h');
    expect(Date.parse(stats.until) - Date.parse(stats.since)).toBe(3_600_000);
    expect(stats.messages).toEqual({
      accepted: 4,
      sent: 0,
      delivered: 3,
      failed: 1,
      fallbacks: 1,
    });
    expect(stats.webhooks).toEqual({ failed: 1 });

    t.clock.advance(3_600_000 + 120_001);
    const later = expectSuccess<OperatorStats>(await asOperator(t, 'stats'));
    expect(later.messages).toEqual({ accepted: 0, sent: 0, delivered: 0, failed: 0, fallbacks: 0 });
    expect(later.webhooks).toEqual({ failed: 0 });
    const day = expectSuccess<OperatorStats>(await asOperator(t, 'stats?window=24h'));
    expect(day.messages.accepted).toBe(4);
    expectFailure(await asOperator(t, 'stats?window=2h'), 400, 'VALIDATION_ERROR');
  });
});
