import type { OptOutList, SwitchboardEvent } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildUpstreamApp, UPSTREAM_NUMBER } from '../support/simulated-upstream';
import { recordedEvents } from '../support/simulator-app';
import { bearer } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const CONTACT = '+14155550101';

describe('the opt-out ledger on every channel', () => {
  it('takes STOP sent over iMessage and refuses sends from that number on any channel', async () => {
    const t = await buildUpstreamApp();
    const events: SwitchboardEvent[] = recordedEvents(t.app, t.customerId);
    const send = (routing: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: bearer(t.key),
        payload: { to: CONTACT, content: { text: 'Sale!' }, routing: { preference: routing } },
      });
    // Scheduled before the STOP: it fails when due, without reaching the provider.
    const scheduledAt = new Date(t.clock.now() + 120_000).toISOString();
    const scheduled = expectSuccess<{ id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: bearer(t.key),
        payload: { to: CONTACT, content: { text: 'Reminder' }, scheduledAt },
      }),
      202,
    );
    for (const [id, text] of [
      ['up-a', 'please stop calling me'],
      ['up-b', 'Stop!'],
      ['up-c', 'STOP'],
    ] as const) {
      const answer = await t.call({
        id,
        type: 'message.inbound',
        channel: 'imessage',
        from: CONTACT,
        to: UPSTREAM_NUMBER,
        text,
      });
      expect(answer.statusCode).toBe(200);
    }
    const outs = events.filter((e) => e.type === 'contact.opted_out');
    expect(outs).toHaveLength(1);
    expect(outs[0]).toMatchObject({
      data: { from: UPSTREAM_NUMBER, recipient: CONTACT, keyword: 'STOP', channel: 'imessage' },
    });
    for (const routing of [['imessage'], ['sms'], ['whatsapp', 'sms']]) {
      expectFailure(await send(routing), 403, 'RECIPIENT_OPTED_OUT');
    }
    const list = expectSuccess<OptOutList>(
      await t.app.inject({
        method: 'GET',
        url: `/v1/opt-outs?from=${encodeURIComponent(UPSTREAM_NUMBER)}&recipient=%2B14155550101`,
        headers: bearer(t.key),
      }),
    );
    expect(list.optOuts).toHaveLength(1);
    expect(list.pagination).toEqual({ hasMore: false, nextCursor: null });
    t.clock.advance(180_000);
    await t.app.services.messages.queueDueMessages();
    const failed = await waitFor(async () => {
      const message = expectSuccess<{ status: string; errorCode: string | null }>(
        await t.app.inject({
          method: 'GET',
          url: `/v1/messages/${scheduled.id}`,
          headers: bearer(t.key),
        }),
      );
      return message.status === 'failed' ? message : undefined;
    });
    expect(failed.errorCode).toBe('RECIPIENT_OPTED_OUT');
  });

  it('pages the ledger, most recently changed first, and validates its query', async () => {
    const t = await buildUpstreamApp();
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1_000);
      await t.call({
        id: `stop-${i}`,
        type: 'message.inbound',
        channel: 'sms',
        from: `+1415555012${i}`,
        to: UPSTREAM_NUMBER,
        text: 'unsubscribe',
      });
    }
    const first = expectSuccess<OptOutList>(
      await t.app.inject({ method: 'GET', url: '/v1/opt-outs?limit=2', headers: bearer(t.key) }),
    );
    expect(first.optOuts.map((o) => o.recipient)).toEqual(['+14155550122', '+14155550121']);
    expect(first.pagination.hasMore).toBe(true);
    const second = expectSuccess<OptOutList>(
      await t.app.inject({
        method: 'GET',
        url: `/v1/opt-outs?limit=2&cursor=${first.pagination.nextCursor}`,
        headers: bearer(t.key),
      }),
    );
    expect(second.optOuts.map((o) => o.recipient)).toEqual(['+14155550120']);
    expectFailure(
      await t.app.inject({
        method: 'GET',
        url: '/v1/opt-outs?status=maybe',
        headers: bearer(t.key),
      }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('a + sent unencoded in a query string', () => {
  it('is refused with the cause named, and the encoded form works', async () => {
    const t = await buildUpstreamApp();
    for (const url of ['/v1/opt-outs?recipient=+14155550101', '/v1/messages?to=+14155550101']) {
      const body = expectFailure(
        await t.app.inject({ method: 'GET', url, headers: bearer(t.key) }),
        400,
        'INVALID_PHONE_NUMBER',
      );
      expect(body.error.message).toContain('%2B');
    }
    for (const url of ['/v1/opt-outs?recipient=%2B14155550101', '/v1/messages?to=%2B14155550101']) {
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(t.key) })).statusCode).toBe(
        200,
      );
    }
  });
});
