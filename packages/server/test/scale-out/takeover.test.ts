import { describe, expect, it, onTestFinished } from 'vitest';
import type { Store } from '../../src/store/store';
import { buildMessagingApp, reopenMessagingApp, timelineOf } from '../messages/messaging-fixture';
import { createTestDatabase, TEST_ENCRYPTION_KEY } from '../support/postgres-database';

const MINUTE = 60_000;

/**
 * Leaves a scheduled message in the state a process that died mid-send leaves on a shared
 * database: `pending` on iMessage, its first attempt recorded, last changed at `changedAt`.
 */
async function leavePending(store: Store, id: string, changedAt: Date): Promise<void> {
  const message = await store.messages.findByIdInAnyCustomer(id);
  if (!message) throw new Error(`no message ${id}`);
  await store.transaction(async (tx) => {
    await tx.messages.transition(id, ['scheduled'], {
      status: 'pending',
      channel: 'imessage',
      timeline: [{ status: 'queued', at: message.createdAt.getTime(), channel: null }],
      updatedAt: changedAt,
    });
    await tx.messageAttempts.insert({
      attemptId: `${id}:0:imessage`,
      messageId: id,
      customerId: message.customerId,
      instanceId: message.instanceId,
      attempt: 0,
      channel: 'imessage',
      externalId: null,
      createdAt: changedAt,
    });
  });
}

describe('several processes on one PostgreSQL database', () => {
  it('take over a dead process’s pending send once it is stale, and leave a live one’s alone', async () => {
    const database = await createTestDatabase();
    onTestFinished(() => database.drop());
    const env = {
      DATABASE_URL: database.url,
      SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      MESSAGE_TAKEOVER_AFTER_MS: String(5 * MINUTE),
    };
    const first = await buildMessagingApp({ env });
    const scheduledAt = new Date(first.clock.now() + 60 * MINUTE).toISOString();
    const stale = await first.sendOk({ to: '+14155550104', content: { text: 'a' }, scheduledAt });
    const live = await first.sendOk({ to: '+14155550104', content: { text: 'b' }, scheduledAt });
    const restartAt = first.clock.now() + 10 * MINUTE;
    // One send left by a process that died ten minutes ago, one being sent by a live process.
    await leavePending(first.app.store, stale, new Date(first.clock.now()));
    await leavePending(first.app.store, live, new Date(restartAt - MINUTE));
    await first.close();

    const second = await reopenMessagingApp(first, { env, startAt: restartAt });
    const message = await second.waitForStatus(stale, 'read');
    expect(timelineOf(message)).toEqual([
      'queued:-',
      'sent:imessage',
      'delivered:imessage',
      'read:imessage',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await second.get(live)).status).toBe('pending');
  });
});
