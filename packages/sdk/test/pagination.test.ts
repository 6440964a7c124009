import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, Page, Switchboard } from '../src/index';
import {
  failure,
  type LoopbackServer,
  ok,
  sendJson,
  startLoopbackServer,
} from './support/loopback-server';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const message = (n: number) => ({ id: `msg_${n}`, status: 'failed' });

/** Serves 7 messages in pages of `limit`, cursor = index of the next item. */
async function startPagedServer() {
  server = await startLoopbackServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const all = Array.from({ length: 7 }, (_, i) => message(i + 1));
    const items = all.slice(start, start + limit);
    const next = start + limit < all.length ? String(start + limit) : null;
    sendJson(
      res,
      200,
      ok({ messages: items, pagination: { hasMore: next !== null, nextCursor: next } }),
    );
  });
  return {
    client: new Switchboard({ apiKey: 'k', baseUrl: server.baseUrl }),
    requests: server.requests,
  };
}

describe('pagination', () => {
  it('walks every item of every page with for await, keeping the filters', async () => {
    const { client, requests } = await startPagedServer();
    const ids: string[] = [];
    for await (const item of client.messages.list({ status: 'failed', limit: 3 })) {
      ids.push(item.id);
    }
    expect(ids).toEqual(['msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5', 'msg_6', 'msg_7']);
    expect(requests.map((request) => request.url)).toEqual([
      '/v1/messages?status=failed&limit=3',
      '/v1/messages?status=failed&limit=3&cursor=3',
      '/v1/messages?status=failed&limit=3&cursor=6',
    ]);
  });

  it('gives one page with its cursor, and the next on demand', async () => {
    const { client, requests } = await startPagedServer();
    const first = await client.messages.list({ limit: 5 });
    expect(first).toBeInstanceOf(Page);
    expect(first.items.map((item) => item.id)).toEqual([
      'msg_1',
      'msg_2',
      'msg_3',
      'msg_4',
      'msg_5',
    ]);
    expect(first.hasMore).toBe(true);
    expect(first.nextCursor).toBe('5');
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second?.items.map((item) => item.id)).toEqual(['msg_6', 'msg_7']);
    expect(second?.hasMore).toBe(false);
    expect(second?.nextCursor).toBeNull();
    await expect(second?.getNextPage()).resolves.toBeNull();
    expect(requests).toHaveLength(2);
  });

  it('iterates pages, and stops fetching when the loop breaks', async () => {
    const { client, requests } = await startPagedServer();
    const first = await client.messages.list({ limit: 2 });
    const sizes: number[] = [];
    for await (const page of first.iterPages()) sizes.push(page.items.length);
    expect(sizes).toEqual([2, 2, 2, 1]);
    const before = requests.length;
    for await (const item of client.messages.list({ limit: 2 })) {
      if (item.id === 'msg_1') break;
    }
    expect(requests.length - before).toBe(1);
  });

  it('walks the pages of a route with path parameters (webhook deliveries)', async () => {
    server = await startLoopbackServer((req, res) => {
      const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
      const deliveries = cursor ? [{ id: 'd2' }] : [{ id: 'd1' }];
      const pagination = cursor
        ? { hasMore: false, nextCursor: null }
        : { hasMore: true, nextCursor: 'c2' };
      sendJson(res, 200, ok({ deliveries, pagination }));
    });
    const client = new Switchboard({ apiKey: 'k', baseUrl: server.baseUrl });
    const ids: string[] = [];
    for await (const delivery of client.webhooks.listDeliveries('wh_1', { status: 'failed' })) {
      ids.push(delivery.id);
    }
    expect(ids).toEqual(['d1', 'd2']);
    expect(server.requests[1]?.url).toBe('/v1/webhooks/wh_1/deliveries?status=failed&cursor=c2');
  });

  it('rejects the iteration with the typed error of a failing page', async () => {
    server = await startLoopbackServer((_req, res) =>
      sendJson(res, 404, failure('WEBHOOK_NOT_FOUND', 'no such webhook')),
    );
    const client = new Switchboard({ apiKey: 'k', baseUrl: server.baseUrl });
    const iterate = async () => {
      for await (const _ of client.webhooks.listDeliveries('missing')) {
        // nothing
      }
    };
    await expect(iterate()).rejects.toBeInstanceOf(NotFoundError);
  });
});
