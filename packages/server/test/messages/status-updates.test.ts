import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/test-app';
import { waitFor as waitUntil } from '../support/wait-for';
import {
  buildMessagingApp,
  errorCodeOf,
  type MessagingApp,
  reopenMessagingApp,
  timelineOf,
} from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

const FOCUSED = '+14155550151';
const READS = '+14155550107';
const SMS_ONLY = '+14155550115';

/** The timeline and events of an iMessage that was read, each status once. */
const READ_TIMELINE = ['queued:-', 'sent:imessage', 'delivered:imessage', 'read:imessage'];
const READ_EVENTS = ['message.queued', 'message.sent', 'message.delivered', 'message.read'];

/** Makes the simulated upstream report `status` for a message (the sandbox API). */
async function report(t: MessagingApp, id: string, status: 'delivered' | 'read' | 'failed') {
  const response = await t.request('POST', `/v1/sandbox/messages/${id}/status`, { status });
  expect(response.statusCode, response.body).toBe(200);
}

describe('provider status updates', () => {
  it('records a read receipt, and ignores a late lower status and a repeat', async () => {
    const t = await buildMessagingApp();
    const id = await t.sendOk({ to: FOCUSED, content: { text: 'hi' } });
    await t.waitForStatus(id, 'delivered');
    await report(t, id, 'read');
    await report(t, id, 'read');
    await report(t, id, 'delivered');
    const read = await t.get(id);
    expect(read.status).toBe('read');
    expect(timelineOf(read)).toEqual(READ_TIMELINE);
    expect(t.eventTypes(id)).toEqual(READ_EVENTS);
  });

  it('fails a sent message on a late carrier failure, but not a delivered one', async () => {
    // Steps long enough to act between `sent` and `delivered`.
    const t = await buildMessagingApp({ env: { SIMULATOR_STEP_MS: '300' } });
    const sentOnly = await t.sendOk({ to: SMS_ONLY, content: { text: 'a' } });
    await t.waitForStatus(sentOnly, 'sent');
    await report(t, sentOnly, 'failed');
    const failed = await t.get(sentOnly);
    expect(failed).toMatchObject({
      status: 'failed',
      errorCode: 'IMESSAGE_SEND_FAILED',
      errorMessage: expect.any(String),
    });
    expect(timelineOf(failed)).toEqual(['queued:-', 'sent:sms', 'failed:sms']);
    expect(t.eventTypes(sentOnly)).toEqual([
      'message.queued',
      'message.fallback',
      'message.sent',
      'message.failed',
    ]);

    const deliveredId = await t.sendOk({ to: SMS_ONLY, content: { text: 'b' } });
    await t.waitFor(deliveredId, (message) => message.externalId !== null);
    await report(t, deliveredId, 'delivered');
    await report(t, deliveredId, 'failed');
    expect((await t.get(deliveredId)).status).toBe('delivered');
    expect(
      errorCodeOf(
        await t.request('POST', `/v1/sandbox/messages/${deliveredId}/status`, { status: 'read' }),
      ),
    ).toBe('CHANNEL_NOT_SUPPORTED');
  });

  it('fills in implied statuses: a read receipt before delivery records sent and delivered too', async () => {
    const t = await buildMessagingApp({ env: { SIMULATOR_STEP_MS: '60000' } });
    const id = await t.sendOk({ to: READS, content: { text: 'hi' } });
    await t.waitFor(id, (message) => message.externalId !== null);
    await report(t, id, 'read');
    const read = await t.get(id);
    expect(timelineOf(read)).toEqual(READ_TIMELINE);
    expect(t.eventTypes(id)).toEqual(READ_EVENTS);
  });

  it('matches an update by provider id after a restart, when the provider no longer echoes the attempt', async () => {
    const dir = tempDir();
    const first = await buildMessagingApp({ dir });
    const id = await first.sendOk({ to: FOCUSED, content: { text: 'hi' } });
    await first.waitForStatus(id, 'delivered');
    await first.close();

    const second = await reopenMessagingApp(first);
    await report(second, id, 'read');
    expect((await second.get(id)).status).toBe('read');
    expect(second.eventTypes(id)).toEqual(['message.read']);
  });

  it('ignores, after a restart, an update by the provider id of an attempt the message moved past', async () => {
    const dir = tempDir();
    const first = await buildMessagingApp({ dir, env: { SIMULATOR_STEP_MS: '60000' } });
    const id = await first.sendOk({ to: FOCUSED, content: { text: 'hi' } });
    const before = (await first.waitFor(id, (message) => message.externalId !== null)).externalId;
    await report(first, id, 'failed');
    await first.waitForStatus(id, 'failed');
    expect((await first.request('POST', `/v1/messages/${id}/retry`)).statusCode).toBe(202);
    const retried = await first.waitFor(
      id,
      (message) => message.externalId !== null && message.externalId !== before,
    );
    await report(first, id, 'delivered');
    await first.waitForStatus(id, 'delivered');
    await first.close();

    // The restarted simulator no longer knows which attempt either provider id was (start-up
    // reconciliation of the delivered message asks it, which makes the instance's provider).
    const { registry, calls } = recordingRegistry();
    const second = await reopenMessagingApp(first, { overrides: { providerRegistry: registry } });
    const simulator = await waitUntil(
      () => calls.simulators.get('simulator'),
      5_000,
      'the simulator instance',
    );
    if (before === null) throw new Error('no first provider id');
    // A read receipt about the first attempt: history, as the message was sent again since.
    await simulator.sandbox.injectStatus({
      channel: 'imessage',
      externalId: before,
      status: 'read',
    });
    expect(await second.get(id)).toMatchObject({ status: 'delivered', retryCount: 1 });
    // The same about the current attempt applies.
    await simulator.sandbox.injectStatus({
      channel: 'imessage',
      externalId: retried.externalId ?? '',
      status: 'read',
    });
    expect(await second.get(id)).toMatchObject({
      status: 'read',
      retryCount: 1,
      externalId: retried.externalId,
    });
    expect(second.eventTypes(id)).toEqual(['message.read']);
  });
});
