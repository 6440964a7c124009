import type { ServerResponse } from 'node:http';
import {
  type LoopbackReceiver,
  type ReceivedRequest,
  startLoopbackReceiver,
} from '@switchboard/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSafeDispatcher } from '../egress/safe-dispatcher';
import {
  classifyStatus,
  type DeliveryOutcome,
  deliver,
  MAX_RESPONSE_BODY_BYTES,
} from './delivery-client';

const dispatcher = createSafeDispatcher({ allowPrivate: true });
const receivers: LoopbackReceiver[] = [];

async function receiver(handler?: (request: ReceivedRequest, response: ServerResponse) => void) {
  const started = await startLoopbackReceiver(handler);
  receivers.push(started);
  return started;
}

function post(url: string, timeoutMs = 5000): Promise<DeliveryOutcome> {
  return deliver({
    url,
    headers: { 'Content-Type': 'application/json' },
    body: '{"id":"evt_1"}',
    timeoutMs,
    dispatcher,
  });
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((started) => started.close()));
});
afterAll(async () => {
  await dispatcher.close();
});

describe('deliver', () => {
  it.each([200, 201, 202, 204])('treats %i as delivered', async (status) => {
    const target = await receiver((_request, response) => response.writeHead(status).end());
    const outcome = await post(target.origin);
    expect(outcome).toMatchObject({
      kind: 'delivered',
      statusCode: status,
      error: null,
      retryAfter: null,
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("POSTs to the URL's own path and query string, with the exact body", async () => {
    const target = await receiver((_request, response) => response.writeHead(204).end());
    const outcome = await post(`${target.origin}/hooks/a%20b?tenant=7&x=%2F`);
    expect(outcome.kind).toBe('delivered');
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]).toMatchObject({
      method: 'POST',
      path: '/hooks/a%20b?tenant=7&x=%2F',
    });
    expect(target.requests[0]?.body.toString('utf8')).toBe('{"id":"evt_1"}');
  });

  it.each([400, 401, 403, 404, 409, 410, 422])('treats %i as terminal', async (status) => {
    const target = await receiver((_request, response) => response.writeHead(status).end('nope'));
    const outcome = await post(target.origin);
    expect(outcome).toMatchObject({
      kind: 'terminal',
      statusCode: status,
      error: `receiver answered HTTP ${status}`,
      responseBody: 'nope',
    });
  });

  it.each([408, 500, 502, 503, 504])('treats %i as retryable', async (status) => {
    const target = await receiver((_request, response) => response.writeHead(status).end());
    expect(await post(target.origin)).toMatchObject({ kind: 'retryable', statusCode: status });
  });

  it('passes a 429 Retry-After on to the schedule', async () => {
    const target = await receiver((_request, response) =>
      response.writeHead(429, { 'Retry-After': '120' }).end('slow down'),
    );
    expect(await post(target.origin)).toMatchObject({
      kind: 'retryable',
      statusCode: 429,
      retryAfter: '120',
      responseBody: 'slow down',
    });
  });

  it('does not follow a redirect, and retries it', async () => {
    const elsewhere = await receiver();
    const moved = await receiver((_request, response) =>
      response.writeHead(301, { Location: `${elsewhere.origin}/new` }).end(),
    );
    const outcome = await post(`${moved.origin}/old`);
    expect(outcome).toMatchObject({ kind: 'retryable', statusCode: 301 });
    expect(outcome.error).toBe(
      `receiver answered HTTP 301 (redirect to ${elsewhere.origin}/new); redirects are not followed`,
    );
    expect(moved.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('times out a receiver that never answers', async () => {
    const hanging = await receiver(() => {
      // never answers
    });
    const outcome = await post(hanging.origin, 200);
    expect(outcome).toMatchObject({
      kind: 'retryable',
      statusCode: null,
      error: 'receiver did not answer within 200 ms',
      responseBody: null,
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(190);
    expect(outcome.durationMs).toBeLessThan(5000);
    expect(hanging.requests).toHaveLength(1);
  });

  it('reports a refused connection as retryable', async () => {
    const closed = await receiver();
    await closed.close();
    const outcome = await post(closed.origin);
    expect(outcome).toMatchObject({ kind: 'retryable', statusCode: null, retryAfter: null });
    expect(outcome.error).toContain('ECONNREFUSED');
  });

  it('keeps only the first 4 KiB of a huge response body', async () => {
    const flooding = await receiver((_request, response) => {
      response.writeHead(500);
      const chunk = 'x'.repeat(64 * 1024);
      // 8 MiB that the client must not buffer; it stops reading after 4 KiB.
      let sent = 0;
      const pump = () => {
        while (sent < 128 && response.write(chunk)) sent += 1;
        if (sent < 128) response.once('drain', pump);
        else response.end();
      };
      pump();
    });
    const outcome = await post(flooding.origin);
    expect(outcome.kind).toBe('retryable');
    expect(outcome.responseBody).toHaveLength(MAX_RESPONSE_BODY_BYTES);
  });

  it('keeps the status of a 2xx whose body dribbles past the deadline', async () => {
    const dribbling = await receiver((_request, response) => {
      response.writeHead(200);
      response.write('partial');
      // never ends the body
    });
    const outcome = await post(dribbling.origin, 300);
    expect(outcome).toMatchObject({
      kind: 'delivered',
      statusCode: 200,
      error: null,
      responseBody: 'partial',
    });
  });
});

describe('classifyStatus', () => {
  it.each([
    [200, 'delivered'],
    [299, 'delivered'],
    [300, 'retryable'],
    [302, 'retryable'],
    [304, 'retryable'],
    [307, 'retryable'],
    [308, 'retryable'],
    [400, 'terminal'],
    [405, 'terminal'],
    [408, 'retryable'],
    [413, 'terminal'],
    [429, 'retryable'],
    [499, 'terminal'],
    [500, 'retryable'],
    [599, 'retryable'],
  ] as const)('%i is %s', (status, kind) => {
    expect(classifyStatus(status)).toBe(kind);
  });
});
