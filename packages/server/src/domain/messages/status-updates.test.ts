import type { ProviderStatusEvent } from '@switchboard/provider-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { firstSmsAttempt, outboundMessage, seedSender } from '../../../test/store/message-fixture';
import { systemClock } from '../../clock';
import { InProcessEventBus } from '../../events/event-bus';
import { EventService } from '../../events/event-service';
import type { InboundContext } from '../../providers/provider-hub';
import { openSqliteStore } from '../../store/sqlite/sqlite-store';
import type { Store } from '../../store/store';
import { ConversationSendResolver } from '../chats/chat-send-resolver';
import { MessageEvents } from './message-events';
import { MessageStatusUpdates } from './status-updates';

const T0 = new Date('2026-01-15T12:00:00.000Z');
const ATTEMPT = firstSmsAttempt(T0).attemptId;
const PROVIDER_ID = 'SM0001';
const CONTEXT: InboundContext = {
  instanceId: 'i1',
  instanceName: 'instance-i1',
  provider: 'simulator',
  channels: ['imessage', 'sms'],
};

/** `sent` for the SMS attempt of `m1`, as its provider reports it. */
const SENT: ProviderStatusEvent = {
  kind: 'message.status',
  channel: 'sms',
  externalId: PROVIDER_ID,
  attemptId: ATTEMPT,
  status: 'sent',
  occurredAt: T0,
};

const stores: Store[] = [];

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

/** A store holding `m1`, pending on its first SMS attempt, which has no provider id yet. */
async function pendingAttempt(): Promise<{ store: Store; updates: MessageStatusUpdates }> {
  const store = openSqliteStore(':memory:');
  stores.push(store);
  await seedSender(store, T0);
  await store.messages.insert(
    outboundMessage('m1', T0, { status: 'pending', channel: 'sms', callbackUrl: null }),
  );
  await store.messageAttempts.insert(firstSmsAttempt(T0));
  const events = new MessageEvents(
    new EventService(systemClock, new InProcessEventBus()),
    new ConversationSendResolver(store),
  );
  return { store, updates: new MessageStatusUpdates(store, events, systemClock) };
}

/** What the send's response records: the attempt's provider id and the message's. */
function recordAccepted(store: Store): Promise<void> {
  return store.transaction(async (tx) => {
    await tx.messageAttempts.recordAccepted(ATTEMPT, PROVIDER_ID);
    await tx.messages.recordProviderId('m1', { retryCount: 0, channel: 'sms' }, PROVIDER_ID);
  });
}

/** A gate the recording waits behind, opened by the test. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A few turns of the event loop: long enough for an update that is not held to be applied. */
async function turns(count = 5): Promise<void> {
  for (let index = 0; index < count; index += 1) await new Promise(setImmediate);
}

describe('status updates while the send they are about is being recorded', () => {
  it('holds an update for the attempt until the recording has ended, then applies it', async () => {
    const { store, updates } = await pendingAttempt();
    const { opened, open } = gate();
    const recording = updates.whileRecording(ATTEMPT, async () => {
      await opened;
      await recordAccepted(store);
    });
    const handled = updates.handle(SENT, CONTEXT);
    await turns();
    // Not applied, and not kept on the attempt for the recording to apply either.
    expect((await store.messages.findByIdInAnyCustomer('m1'))?.status).toBe('pending');
    expect((await store.messageAttempts.findById(ATTEMPT))?.earlyUpdates ?? null).toBeNull();
    open();
    await Promise.all([recording, handled]);
    expect(await store.messages.findByIdInAnyCustomer('m1')).toMatchObject({
      status: 'sent',
      externalId: PROVIDER_ID,
    });
    expect((await store.messageAttempts.findById(ATTEMPT))?.earlyUpdates ?? null).toBeNull();
  });

  it('lets the update go on when the recording fails: it is kept on the attempt, as before', async () => {
    const { store, updates } = await pendingAttempt();
    const { opened, open } = gate();
    const recording = updates.whileRecording(ATTEMPT, async () => {
      await opened;
      throw new Error('disk full');
    });
    const handled = updates.handle(SENT, CONTEXT);
    open();
    await expect(recording).rejects.toThrow('disk full');
    await handled;
    const attempt = await store.messageAttempts.findById(ATTEMPT);
    expect(attempt?.earlyUpdates).toEqual([
      expect.objectContaining({ externalId: PROVIDER_ID, status: 'sent' }),
    ]);
    expect((await store.messages.findByIdInAnyCustomer('m1'))?.status).toBe('pending');
  });

  it('does not hold updates of other attempts, nor any once the recording has ended', async () => {
    const { store, updates } = await pendingAttempt();
    const { opened, open } = gate();
    const recording = updates.whileRecording('m2:0:sms', () => opened);
    // Applied at once although another attempt is being recorded: it keeps the update on its own.
    await updates.handle(SENT, CONTEXT);
    expect((await store.messageAttempts.findById(ATTEMPT))?.earlyUpdates).toHaveLength(1);
    open();
    await recording;
    await recordAccepted(store);
    await updates.whileRecording(ATTEMPT, async () => undefined);
    await updates.handle({ ...SENT, status: 'delivered' }, CONTEXT);
    expect((await store.messages.findByIdInAnyCustomer('m1'))?.status).toBe('delivered');
  });
});
