import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/test-app';
import { buildMessagingApp, reopenMessagingApp, timelineOf } from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

const READS = '+14155550106';
const MINUTE = 60_000;

describe('the scheduler', () => {
  it('queues a due message on its next check, and it is then delivered like any send', async () => {
    const t = await buildMessagingApp({ env: { SCHEDULER_INTERVAL_MS: '20' } });
    const scheduledAt = new Date(t.clock.now() + 5 * MINUTE).toISOString();
    const id = await t.sendOk({ to: READS, content: { text: 'later' }, scheduledAt });
    // Not due yet: several checks go by and nothing moves.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await t.get(id)).status).toBe('scheduled');

    t.clock.advance(5 * MINUTE);
    const message = await t.waitForStatus(id, 'read');
    expect(timelineOf(message)).toEqual([
      'scheduled:-',
      'queued:-',
      'sent:imessage',
      'delivered:imessage',
      'read:imessage',
    ]);
    expect(message.scheduledAt).toBe(scheduledAt);
    expect(t.eventTypes(id)).toEqual([
      'message.scheduled',
      'message.queued',
      'message.sent',
      'message.delivered',
      'message.read',
    ]);
  });

  it('sends at start what fell due while the server was down; cancelled and deleted ones never', async () => {
    const dir = tempDir();
    const first = await buildMessagingApp({ dir });
    const at = new Date(first.clock.now() + 10 * MINUTE).toISOString();
    const due = await first.sendOk({ to: READS, content: { text: 'due' }, scheduledAt: at });
    const cancelled = await first.sendOk({ to: READS, content: { text: 'no' }, scheduledAt: at });
    const deleted = await first.sendOk({ to: READS, content: { text: 'gone' }, scheduledAt: at });
    await first.request('DELETE', `/v1/messages/${cancelled}/schedule`);
    await first.request('DELETE', `/v1/messages/${deleted}`);
    await first.close();

    const { registry, calls } = recordingRegistry();
    // An hour after the due time, with the default one-minute interval: only the start-up check runs.
    const second = await reopenMessagingApp(first, {
      startAt: first.clock.now() + 70 * MINUTE,
      overrides: { providerRegistry: registry },
    });
    const message = await second.waitForStatus(due, 'read');
    expect(timelineOf(message).slice(0, 2)).toEqual(['scheduled:-', 'queued:-']);
    expect((await second.get(cancelled)).status).toBe('cancelled');
    expect((await second.request('GET', `/v1/messages/${deleted}`)).statusCode).toBe(404);
    expect(calls.sends.map((send) => send.messageId)).toEqual([due]);
  });

  it('queues and sends each due message exactly once when two servers race on one database', async () => {
    const dir = tempDir();
    const origin = await buildMessagingApp({ dir });
    const at = new Date(origin.clock.now() + MINUTE).toISOString();
    const ids: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      ids.push(await origin.sendOk({ to: READS, content: { text: `n${index}` }, scheduledAt: at }));
    }
    await origin.close();

    const { registry, calls } = recordingRegistry();
    const env = { SCHEDULER_INTERVAL_MS: '10' };
    const a = await reopenMessagingApp(origin, { env, overrides: { providerRegistry: registry } });
    const b = await reopenMessagingApp(origin, { env, overrides: { providerRegistry: registry } });
    a.clock.advance(2 * MINUTE);
    b.clock.advance(2 * MINUTE);
    for (const id of ids) {
      const message = await a.waitForStatus(id, 'read');
      expect(timelineOf(message).filter((entry) => entry.startsWith('queued'))).toHaveLength(1);
      expect(timelineOf(message).filter((entry) => entry.startsWith('sent'))).toHaveLength(1);
    }
    const sendsPerMessage = new Map<string, number>();
    for (const send of calls.sends) {
      sendsPerMessage.set(send.messageId, (sendsPerMessage.get(send.messageId) ?? 0) + 1);
    }
    expect([...sendsPerMessage.keys()].sort()).toEqual([...ids].sort());
    expect([...sendsPerMessage.values()].every((count) => count === 1)).toBe(true);
    // One `message.queued` event per message. Each app's bus carries what that process's streams
    // get: its own events and, with Redis (the PostgreSQL runs), the other's too; so by id.
    const queuedEvents = new Map<string, string>();
    for (const event of [...a.events, ...b.events]) {
      if (event.type === 'message.queued') queuedEvents.set(event.id, event.data.messageId);
    }
    expect([...queuedEvents.values()].sort()).toEqual([...ids].sort());
  });
});
