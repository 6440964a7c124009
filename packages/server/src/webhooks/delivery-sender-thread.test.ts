import type { ServerResponse } from 'node:http';
import { Worker } from 'node:worker_threads';
import {
  type LoopbackReceiver,
  type ReceivedRequest,
  startLoopbackReceiver,
} from '@switchboard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRequest } from './delivery-sender';
import { startSenderThread, ThreadDeliverySender } from './delivery-sender-thread';
import { buildDeliveryHeaders } from './webhook-signer';

const receivers: LoopbackReceiver[] = [];
const senders: ThreadDeliverySender[] = [];

async function receiver(handler?: (request: ReceivedRequest, response: ServerResponse) => void) {
  const started = await startLoopbackReceiver(handler);
  receivers.push(started);
  return started;
}

function sender(
  options: {
    allowPrivate?: boolean;
    timeoutMs?: number;
    startThread?: typeof startSenderThread;
  } = {},
) {
  const created = new ThreadDeliverySender({
    allowPrivate: options.allowPrivate ?? true,
    timeoutMs: options.timeoutMs ?? 5000,
    ...(options.startThread ? { startThread: options.startThread } : {}),
  });
  senders.push(created);
  return created;
}

function request(url: string, overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return {
    url,
    secret: 'whsec_thread_test_secret_0123456789',
    body: '{"id":"evt_1","type":"message.sent"}',
    timestamp: 1_795_000_000_000,
    correlationId: 'cor_0123456789abcdef0123456789abcdef',
    eventId: 'evt_1',
    eventType: 'message.sent',
    ...overrides,
  };
}

afterEach(async () => {
  await Promise.all(senders.splice(0).map((created) => created.close()));
  await Promise.all(receivers.splice(0).map((started) => started.close()));
});

describe('ThreadDeliverySender', () => {
  it('sends the exact body, signed as on the event loop, and reports the answer', async () => {
    const target = await receiver((_request, response) => response.writeHead(204).end());
    const sent = request(`${target.origin}/hook`);
    const outcome = await sender().send(sent);
    expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 204, error: null });
    const [received] = target.requests;
    expect(received?.path).toBe('/hook');
    expect(received?.body.toString('utf8')).toBe(sent.body);
    const expected = buildDeliveryHeaders({ ...sent, timestamp: sent.timestamp });
    for (const [name, value] of Object.entries(expected)) {
      expect(received?.headers[name.toLowerCase()]).toBe(value);
    }
  });

  it('gives each of many attempts in flight its own outcome', async () => {
    const target = await receiver((incoming, response) => {
      const status = Number(incoming.path.slice(1));
      // Answer in the reverse order of arrival, so outcomes come back out of order.
      setTimeout(() => response.writeHead(status).end(), 400 - status);
    });
    const statuses = [200, 201, 202, 204, 301, 400, 404, 409, 410, 429, 500, 503];
    const created = sender();
    const outcomes = await Promise.all(
      statuses.map((status) => created.send(request(`${target.origin}/${status}`))),
    );
    expect(outcomes.map((outcome) => outcome.statusCode)).toEqual(statuses);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'delivered',
      'retryable',
      'terminal',
      'terminal',
      'terminal',
      'terminal',
      'retryable',
      'retryable',
      'retryable',
    ]);
  });

  it('applies the address policy and the deadline in the thread', async () => {
    const hanging = await receiver(() => {
      // Never answers.
    });
    const guarded = sender({ allowPrivate: false, timeoutMs: 300 });
    const blocked = await guarded.send(request(`http://${'127.0.0.1'}:${hanging.port}/`));
    expect(blocked.kind).toBe('retryable');
    expect(blocked.error).toMatch(/127\.0\.0\.1/);
    expect(hanging.requests).toHaveLength(0);

    const timedOut = await sender({ timeoutMs: 300 }).send(request(hanging.origin));
    expect(timedOut).toMatchObject({
      kind: 'retryable',
      statusCode: null,
      error: 'receiver did not answer within 300 ms',
    });
  });

  it('waits for the attempts in flight when it closes, then refuses new ones', async () => {
    const target = await receiver((_request, response) => {
      setTimeout(() => response.writeHead(200).end(), 200);
    });
    const created = sender();
    const inFlight = created.send(request(target.origin));
    // The attempt is handed to the thread at the end of this turn; closing waits for its answer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await created.close();
    await expect(inFlight).resolves.toMatchObject({ kind: 'delivered', statusCode: 200 });
    await expect(created.send(request(target.origin))).resolves.toMatchObject({
      kind: 'retryable',
      error: 'the webhook sender is closed',
    });
    expect(target.requests).toHaveLength(1);
  });

  it('fails an attempt that cannot be signed alone, as on the event loop, and keeps the thread', async () => {
    const target = await receiver((_request, response) => response.writeHead(200).end());
    const created = sender();
    const [unsigned, signed] = await Promise.allSettled([
      created.send(request(target.origin, { timestamp: Number.NaN })),
      created.send(request(target.origin)),
    ]);
    expect(unsigned).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/timestamp/) },
    });
    expect(signed).toMatchObject({ status: 'fulfilled', value: { kind: 'delivered' } });
    await expect(created.send(request(target.origin))).resolves.toMatchObject({
      kind: 'delivered',
    });
    expect(target.requests).toHaveLength(2);
  });

  it('gives back the attempts of a thread that died as retryable, and starts a new one', async () => {
    const target = await receiver((_request, response) => response.writeHead(200).end());
    let started = 0;
    const created = sender({
      // The first thread dies on its first message; the next ones are real.
      startThread: (workerData) => {
        started += 1;
        if (started > 1) return startSenderThread(workerData);
        const dies =
          "require('node:worker_threads').parentPort.on('message', () => process.exit(3));";
        return new Worker(dies, { eval: true });
      },
    });
    const lost = await Promise.all([
      created.send(request(target.origin)),
      created.send(request(target.origin)),
    ]);
    for (const outcome of lost) {
      expect(outcome).toMatchObject({
        kind: 'retryable',
        statusCode: null,
        error: 'the webhook sender thread stopped (exit code 3); will retry',
      });
    }
    await expect(created.send(request(target.origin))).resolves.toMatchObject({
      kind: 'delivered',
      statusCode: 200,
    });
    expect(started).toBe(2);
    expect(target.requests).toHaveLength(1);
  });
});
