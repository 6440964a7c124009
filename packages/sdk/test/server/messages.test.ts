import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MessageResponse, NotFoundError, type Switchboard } from '../../src/index';
import { clientFor, createCustomer } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

// Simulator recipients (docs/simulator.md): the last two digits pick the outcome.
const DELIVERED_AND_READ = '+12125550104';
const FIRST_ATTEMPT_FAILS = '+12125550131';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  server = await startServer({ numbers: ['+14155550100', '+14155550101'] });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

/** Waits until the message reaches `status` and returns it. */
async function reach(id: string, status: MessageResponse['status']): Promise<MessageResponse> {
  await expect.poll(async () => (await client.messages.get(id)).status).toBe(status);
  return client.messages.get(id);
}

describe('messages against the real server', () => {
  it('sends a message and follows it to read', async () => {
    const sent = await client.messages.send({
      to: DELIVERED_AND_READ,
      content: { text: 'Your table is ready.' },
      metadata: { orderId: 'ord_1' },
    });
    expect(sent).toMatchObject({ status: 'queued', to: DELIVERED_AND_READ, from: '+14155550100' });
    expect(sent.id).toMatch(/^msg_/);

    const read = await reach(sent.id, 'read');
    expect(read.channel).toBe('imessage');
    expect(read.metadata).toEqual({ orderId: 'ord_1' });
    expect(read.timeline.map((entry) => entry.status)).toEqual([
      'queued',
      'sent',
      'delivered',
      'read',
    ]);
  });

  it('answers 200 with the first message when an idempotencyKey is repeated', async () => {
    const body = { to: DELIVERED_AND_READ, content: { text: 'Once' }, idempotencyKey: 'once-1' };
    const first = await client.messages.send(body).withResponse();
    const second = await client.messages
      .send({ ...body, content: { text: 'Twice?' } })
      .withResponse();
    expect(first.status).toBe(202);
    expect(second.status).toBe(200);
    expect(second.data.id).toBe(first.data.id);
  });

  it('edits, reacts to, unsends and deletes a delivered iMessage', async () => {
    const sent = await client.messages.send({
      to: DELIVERED_AND_READ,
      content: { text: 'Dinner at 8?' },
    });
    await reach(sent.id, 'read');

    const edited = await client.messages.edit(sent.id, { text: 'Dinner at 9?' });
    expect(edited.content.text).toBe('Dinner at 9?');

    const reaction = await client.messages.react(sent.id, { type: 'love' });
    expect(reaction).toEqual({ messageId: sent.id, reaction: 'love' });
    const removed = await client.messages.react(sent.id, { type: '-love' });
    expect(removed.reaction).toBe('-love');

    const unsent = await client.messages.unsend(sent.id);
    expect(unsent.status).toBe('unsent');

    expect(await client.messages.delete(sent.id)).toEqual({ id: sent.id, deleted: true });
    await expect(client.messages.get(sent.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('retries a failed message: same id, a new attempt, delivered', async () => {
    const sent = await client.messages.send({
      to: FIRST_ATTEMPT_FAILS,
      content: { text: 'Try again' },
    });
    const failed = await reach(sent.id, 'failed');
    expect(failed.errorCode).toBe('IMESSAGE_SEND_FAILED');

    const retried = await client.messages.retry(sent.id);
    expect(retried).toEqual({ id: sent.id, status: 'queued', retryCount: 1 });
    const delivered = await reach(sent.id, 'delivered');
    expect(delivered.retryCount).toBe(1);
    expect(delivered.timeline.map((entry) => entry.status)).toEqual([
      'queued',
      'failed',
      'queued',
      'sent',
      'delivered',
    ]);
  });

  it('schedules a message, lists it with the scheduled ones and cancels it', async () => {
    const scheduledAt = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const sent = await client.messages.send({
      to: DELIVERED_AND_READ,
      content: { text: 'Tomorrow at 9' },
      scheduledAt,
    });
    expect(sent.status).toBe('scheduled');

    const page = await client.messages.listScheduled({ limit: 10 });
    expect(page.items.map((message) => message.id)).toContain(sent.id);

    const cancelled = await client.messages.cancelSchedule(sent.id);
    expect(cancelled.status).toBe('cancelled');
    const after = [];
    for await (const message of client.messages.listScheduled()) after.push(message.id);
    expect(after).not.toContain(sent.id);
  });
});

describe('pagination against the real server', () => {
  it('walks every page with for await, and reads one page with its cursor', async () => {
    const { client: own } = await createCustomer(server, 'Pagination', ['+14155550120']);
    const sent: string[] = [];
    for (let n = 0; n < 5; n++) {
      sent.push(
        (await own.messages.send({ to: DELIVERED_AND_READ, content: { text: `#${n}` } })).id,
      );
    }

    const walked: string[] = [];
    for await (const message of own.messages.list({ limit: 2 })) walked.push(message.id);
    expect(walked).toHaveLength(5);
    expect(new Set(walked)).toEqual(new Set(sent));

    const first = await own.messages.list({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await first.getNextPage();
    expect(second?.items).toHaveLength(2);
    expect(second?.items.map((m) => m.id)).not.toContain(first.items[0]?.id);

    let pages = 0;
    for await (const page of first.iterPages()) {
      pages++;
      expect(page.items.length).toBeGreaterThan(0);
    }
    expect(pages).toBe(3);

    const filtered = [];
    for await (const message of own.messages.list({ to: DELIVERED_AND_READ, limit: 100 })) {
      filtered.push(message);
    }
    expect(filtered).toHaveLength(5);
  });
});
