import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../support/admin-helpers';
import { buildMessagingApp, timelineOf } from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const attachments = (n: number) =>
  Array.from({ length: n }, (_, index) => ({
    type: 'base64',
    data: PNG,
    mimeType: 'image/png',
    filename: `photo-${index}.png`,
  }));

async function appWithSteps(stepMs: number) {
  const { registry, calls } = recordingRegistry();
  const t = await buildMessagingApp({ overrides: { providerRegistry: registry } });
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/admin/v1/instances/${t.instanceId}`,
    headers: adminHeaders,
    payload: { config: { stepMs } },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { t, calls };
}

describe('a send that becomes several upstream messages', () => {
  it('is sent, then delivered, once every part is — each step once', async () => {
    const { t, calls } = await appWithSteps(0);
    const id = await t.sendOk({
      to: '+14155550103',
      routing: { preference: ['sms'] },
      content: { text: 'three photos' },
      attachments: attachments(3),
    });
    const message = await t.waitForStatus(id, 'delivered');
    const result = calls.results.get(id);
    expect(result?.parts?.map((part) => part.kind)).toEqual(['text', 'attachment', 'attachment']);
    expect(message.externalId).toBe(result?.externalId);
    expect(timelineOf(message)).toEqual(['queued:-', 'sent:sms', 'delivered:sms']);
    expect(t.eventTypes(id)).toEqual(['message.queued', 'message.sent', 'message.delivered']);
  });

  it('aggregates the parts’ statuses, and fails naming the part that failed', async () => {
    const { t, calls } = await appWithSteps(60_000);
    const id = await t.sendOk({
      to: '+14155550104',
      routing: { preference: ['sms'] },
      content: { text: 'three photos' },
      attachments: attachments(3),
    });
    // The parts are recorded with the accepted send: report their statuses once it is.
    await t.waitFor(id, (message) => calls.results.has(id) && message.externalId !== null);
    const parts = calls.results.get(id)?.parts ?? [];
    expect(parts).toHaveLength(3);
    const simulator = calls.simulators.get('simulator');
    if (!simulator) throw new Error('no simulator');
    const report = (index: number, status: 'sent' | 'delivered' | 'failed') =>
      simulator.sandbox.injectStatus({
        channel: 'sms',
        externalId: parts[index]?.externalId ?? '',
        status,
        ...(status === 'failed'
          ? { error: { code: 'IMESSAGE_SEND_FAILED', message: 'Unknown destination handset' } }
          : {}),
      });

    await report(0, 'sent');
    await report(1, 'sent');
    expect((await t.get(id)).status).toBe('pending');
    await report(2, 'sent');
    expect((await t.get(id)).status).toBe('sent');
    await report(0, 'delivered');
    await report(1, 'delivered');
    await report(1, 'delivered');
    expect((await t.get(id)).status).toBe('sent');
    await report(2, 'failed');
    const failed = await t.get(id);
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toBe(
      'Part 3 of 3 (attachment) failed: Unknown destination handset',
    );
    expect(t.eventTypes(id)).toEqual(['message.queued', 'message.sent', 'message.failed']);
  });

  it('stays one upstream message on channels that carry a gallery in one', async () => {
    const { t, calls } = await appWithSteps(0);
    const id = await t.sendOk({ to: '+14155550105', attachments: attachments(3) });
    await t.waitForStatus(id, 'delivered', 'read');
    expect(calls.results.get(id)?.parts).toBeUndefined();
  });
});
