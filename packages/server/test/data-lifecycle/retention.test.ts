import type { CustomerRetention } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { buildChatApp, eventually, OWN_NUMBER } from '../chats/chat-test-app';
import { adminHeaders } from '../support/admin-helpers';
import { searchDatabase } from '../support/database-search';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';

const DAY = 86_400_000;
const CONTACT = '+14155550177';

/** An app whose pruner works in batches of two, without pauses. */
async function retentionApp(env: Record<string, string> = {}) {
  const t = await buildChatApp({
    env: { RETENTION_BATCH_SIZE: '2', RETENTION_BATCH_PAUSE_MS: '0', ...env },
  });
  // Sent and settled: its status events are written before the test moves the clock.
  const send = async (text: string) => {
    const sent = await t.acme.ok<{ id: string }>(
      'POST',
      '/v1/messages',
      { to: CONTACT, content: { text } },
      202,
    );
    await eventually(async () => {
      const message = await t.acme.ok<{ status: string }>('GET', `/v1/messages/${sent.id}`);
      return message.status === 'delivered' ? message : undefined;
    });
    return sent;
  };
  const tables = async (needle: string) =>
    [
      ...new Set((await searchDatabase(t, [needle])).map((hit) => `${hit.table}.${hit.column}`)),
    ].sort();
  return { t, send, tables };
}

describe('retention', () => {
  it('prunes the event log and inbound attachments past their periods, in batches', async () => {
    const { t, send, tables } = await retentionApp();
    for (let n = 0; n < 3; n += 1) await send(`old-marker-${n}`);
    await t.acme.ok('POST', '/v1/sandbox/inbound-messages', {
      channel: 'imessage',
      from: CONTACT,
      to: OWN_NUMBER,
      text: 'old-inbound',
      attachments: [
        { data: Buffer.from('old-attachment-bytes').toString('base64'), filename: 'a.jpg' },
      ],
    });
    expect(await tables('old-marker')).toEqual(['events.payload', 'messages.text']);
    t.clock.advance(31 * DAY);
    await send('new-marker');

    const first = await t.app.services.retentionPruner.run();
    expect(first.eventLog).toBeGreaterThanOrEqual(4);
    expect(first.inboundAttachments).toBe(0);
    expect(first.messageContent).toBe(0);
    // The messages keep their content (no content period is set); their events are gone.
    expect(await tables('old-marker')).toEqual(['messages.text']);
    expect(await tables('new-marker')).toEqual(['events.payload', 'messages.text']);
    expect(await tables('old-attachment-bytes')).toEqual(['stored_attachments.data']);

    t.clock.advance(60 * DAY);
    const second = await t.app.services.retentionPruner.run();
    expect(second.inboundAttachments).toBe(1);
    expect(await tables('old-attachment-bytes')).toEqual([]);
    if (t.config.databaseUrl.endsWith('.db')) expect(second.freePages).toBe(0);
    // Nothing left to do: a run finds nothing.
    const third = await t.app.services.retentionPruner.run();
    expect(third).toMatchObject({ eventLog: 0, inboundAttachments: 0, messageContent: 0 });
  }, 120_000);

  it("redacts a customer's message content past its own shorter period, keeping the record", async () => {
    const { t, send, tables } = await retentionApp();
    const other = await t.addCustomer('Globex', '+14155550190');
    const old = await send('content-marker');
    await other.ok(
      'POST',
      '/v1/messages',
      { to: CONTACT, content: { text: 'globex-marker' } },
      202,
    );
    await eventually(async () => ((await tables('globex-marker')).length === 2 ? true : undefined));
    const url = `/admin/v1/customers/${t.acme.customerId}/retention`;
    const set = expectSuccess<CustomerRetention>(
      await t.app.inject({
        method: 'PUT',
        url,
        headers: adminHeaders,
        payload: { messageContent: 7 },
      }),
    );
    expect(set).toMatchObject({
      deployment: { eventLog: 30, deliveryLog: 30, inboundAttachments: 90, messageContent: null },
      overrides: { eventLog: null, messageContent: 7 },
      effective: { eventLog: 7, deliveryLog: 7, inboundAttachments: 7, messageContent: 7 },
    });
    // Longer than the deployment's: refused; the stored overrides are unchanged.
    expectFailure(
      await t.app.inject({ method: 'PUT', url, headers: adminHeaders, payload: { eventLog: 31 } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(
      expectSuccess<CustomerRetention>(
        await t.app.inject({ method: 'GET', url, headers: adminHeaders }),
      ).overrides,
    ).toEqual({ eventLog: null, deliveryLog: null, inboundAttachments: null, messageContent: 7 });

    t.clock.advance(8 * DAY);
    const fresh = await send('fresh-marker');
    const report = await t.app.services.retentionPruner.run();
    expect(report.messageContent).toBe(1);
    const redacted = await t.acme.ok<{ status: string; content: { text: string } }>(
      'GET',
      `/v1/messages/${old.id}`,
    );
    expect(redacted.content.text).toBe('');
    expect(redacted.status).not.toBe('queued');
    expect(await tables('content-marker')).toEqual([]);
    expect(await tables('fresh-marker')).toEqual(['events.payload', 'messages.text']);
    // The other customer follows the deployment: its content and events stay.
    expect(await tables('globex-marker')).toEqual(['events.payload', 'messages.text']);
    const kept = await t.acme.ok<{ content: { text: string } }>('GET', `/v1/messages/${fresh.id}`);
    expect(kept.content.text).toBe('fresh-marker');
  }, 120_000);

  it('keeps an event whose webhook delivery is still pending', async () => {
    const { t, send, tables } = await retentionApp();
    await t.acme.ok('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, 201);
    await t.app.services.webhookDispatcher.stop();
    await send('pending-marker');
    t.clock.advance(31 * DAY);
    await t.app.services.retentionPruner.run();
    expect(await tables('pending-marker')).toContain('events.payload');
  }, 120_000);
});
