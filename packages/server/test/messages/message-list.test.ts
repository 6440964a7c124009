import type { Message } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../support/test-app';
import { buildMessagingApp, errorCodeOf } from './messaging-fixture';

interface Page {
  messages: Message[];
  pagination: { hasMore: boolean; nextCursor: string | null };
}

const text = { text: 'hello' };

describe('GET /v1/messages', () => {
  it('pages newest first, and stays stable while new messages arrive', async () => {
    const t = await buildMessagingApp();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push(await t.sendOk({ to: '+14155550199', content: text }));
      // Two messages share each millisecond: the id breaks the tie.
      if (index % 2 === 1) t.clock.advance(1_000);
    }
    const newestFirst = [...ids].reverse();
    const list = async (query: string) => {
      const response = await t.request('GET', `/v1/messages${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return bodyOf<{ data: Page }>(response).data;
    };

    const first = await list('?limit=2');
    expect(first.messages.map((message) => message.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.pagination.hasMore).toBe(true);

    // A newer message arrives between pages: the following pages neither repeat nor skip.
    t.clock.advance(1_000);
    const newcomer = await t.sendOk({ to: '+14155550199', content: text });
    const second = await list(`?limit=2&cursor=${first.pagination.nextCursor}`);
    expect(second.messages.map((message) => message.id)).toEqual(newestFirst.slice(2, 4));
    const third = await list(`?limit=2&cursor=${second.pagination.nextCursor}`);
    expect(third.messages.map((message) => message.id)).toEqual(newestFirst.slice(4));
    expect(third.pagination).toEqual({ hasMore: false, nextCursor: null });

    const all = await list('');
    expect(all.messages.map((message) => message.id)).toEqual([newcomer, ...newestFirst]);
    expect(all.messages[0]).toMatchObject({ direction: 'outbound', to: '+14155550199' });
  });

  it('filters by status and by recipient', async () => {
    const t = await buildMessagingApp();
    const failed = await t.sendOk({
      to: '+14155550133',
      content: text,
      routing: { fallback: false },
    });
    const delivered = await t.sendOk({ to: '+14155550198', content: text });
    const read = await t.sendOk({ to: '+14155550105', content: text });
    await t.waitForStatus(failed, 'failed');
    await t.waitForStatus(delivered, 'delivered');
    await t.waitForStatus(read, 'read');
    const ids = async (query: string) =>
      bodyOf<{ data: Page }>(await t.request('GET', `/v1/messages${query}`)).data.messages.map(
        (message) => message.id,
      );
    expect(await ids('?status=failed')).toEqual([failed]);
    expect(await ids('?status=read')).toEqual([read]);
    expect(await ids('?status=queued')).toEqual([]);
    expect(await ids('?to=%2B14155550198')).toEqual([delivered]);
    expect(await ids('?to=%2B14155550198&status=read')).toEqual([]);
  });

  it('refuses a malformed cursor, limit or filter', async () => {
    const t = await buildMessagingApp();
    for (const [query, code] of [
      ['?cursor=nonsense', 'VALIDATION_ERROR'],
      ['?limit=0', 'VALIDATION_ERROR'],
      ['?limit=101', 'VALIDATION_ERROR'],
      ['?status=lost', 'VALIDATION_ERROR'],
      ['?to=0415', 'INVALID_PHONE_NUMBER'],
      ['?statuss=failed', 'VALIDATION_ERROR'],
    ] as const) {
      const response = await t.request('GET', `/v1/messages${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(errorCodeOf(response), query).toBe(code);
    }
  });
});
