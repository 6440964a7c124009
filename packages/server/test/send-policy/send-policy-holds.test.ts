import type { Message, MessageRouting } from '@switchboard/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { expectSuccess } from '../support/envelope-assertions';
import { buildUpstreamApp, UPSTREAM_NUMBER, type UpstreamApp } from '../support/simulated-upstream';
import { bearer } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const DAY_MS = 86_400_000;
/** 2026-01-15T12:00:00Z, the test clock's start. */
const START = Date.parse('2026-01-15T12:00:00Z');
const NEXT_DAY = '2026-01-16T00:00:00.000Z';

let t: UpstreamApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function app(env: Record<string, string> = {}): Promise<UpstreamApp> {
  t = await buildUpstreamApp({ startAt: START, env: { SEND_POLICY_RECHECK_MS: '20', ...env } });
  return t;
}

async function numberId(u: UpstreamApp): Promise<string> {
  const number = await u.app.store.numbers.findByAddress(u.customerId, UPSTREAM_NUMBER);
  if (!number) throw new Error('no number');
  return number.id;
}

async function send(u: UpstreamApp, to: string, channel = 'imessage'): Promise<string> {
  const sent = expectSuccess<{ id: string }>(
    await u.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: bearer(u.key),
      payload: {
        to,
        content: { text: 'hello' },
        routing: { preference: [channel], fallback: false },
      },
    }),
    202,
  );
  return sent.id;
}

async function message(u: UpstreamApp, id: string): Promise<Message> {
  return expectSuccess<Message>(
    await u.app.inject({ method: 'GET', url: `/v1/messages/${id}`, headers: bearer(u.key) }),
  );
}

/** Waits until the message left `queued` (or is held there with `code`). */
/** How long a send may take to settle: the whole suite on two cores is slower than the file. */
const SETTLED_MS = 15_000;

async function settled(u: UpstreamApp, id: string, code?: string): Promise<Message> {
  return waitFor(async () => {
    const current = await message(u, id);
    if (code !== undefined) return current.hold?.code === code ? current : undefined;
    return current.status !== 'queued' && current.status !== 'pending' ? current : undefined;
  }, SETTLED_MS);
}

/** Waits until the upstream accepted the message (its provider id is known). */
async function accepted(u: UpstreamApp, id: string): Promise<Message> {
  return waitFor(async () => {
    const current = await message(u, id);
    return current.externalId === null ? undefined : current;
  }, SETTLED_MS);
}

describe('send policies hold sends beyond the allowance', () => {
  it('holds a send beyond the warm-up day cap until the next day, then sends it', async () => {
    const u = await app();
    await u.app.store.sendPolicies.putPolicy(
      'number',
      await numberId(u),
      { inUseSince: '2026-01-15', channels: { imessage: { dailyCap: 10, warmUpRamp: [2, 3] } } },
      START,
    );
    const ids = [];
    for (const to of ['+14155550181', '+14155550182', '+14155550183']) ids.push(await send(u, to));
    const [a, b, c] = ids as [string, string, string];
    expect((await settled(u, a)).status).not.toBe('failed');
    expect((await settled(u, b)).status).not.toBe('failed');
    const held = await settled(u, c, 'warm_up');
    expect(held.status).toBe('queued');
    expect(held.hold).toMatchObject({ code: 'warm_up', until: NEXT_DAY });
    const trace = expectSuccess<MessageRouting>(
      await u.app.inject({
        method: 'GET',
        url: `/v1/messages/${c}/routing`,
        headers: bearer(u.key),
      }),
    );
    expect(trace.steps.at(-1)).toMatchObject({
      decision: 'waited',
      reason: 'send_policy',
      code: 'warm_up',
    });
    // Never early: still held a minute before midnight.
    u.clock.advance(Date.parse(NEXT_DAY) - START - 60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await message(u, c)).status).toBe('queued');
    // Day 2 of the ramp allows 3: the held one leaves, two more go, the next waits.
    u.clock.advance(60_000);
    const left = await settled(u, c);
    expect(left.status).not.toBe('failed');
    expect(left.hold ?? null).toBeNull();
    const more = [
      await send(u, '+14155550184'),
      await send(u, '+14155550185'),
      await send(u, '+14155550186'),
    ];
    expect((await settled(u, more[0] as string)).status).not.toBe('failed');
    expect((await settled(u, more[1] as string)).status).not.toBe('failed');
    expect((await settled(u, more[2] as string, 'warm_up')).hold?.until).toBe(
      '2026-01-17T00:00:00.000Z',
    );
  });

  it('counts a burst against the day cap in the order it was accepted', async () => {
    const u = await app();
    await u.app.store.sendPolicies.putPolicy(
      'number',
      await numberId(u),
      { alreadyWarm: true, channels: { imessage: { dailyCap: 6 } } },
      START,
    );
    // Each send is accepted before the next is made; their deliveries overlap.
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      ids.push(await send(u, `+1415555${6100 + index}`));
    }
    const outcomes = [];
    for (const id of ids) {
      outcomes.push(
        await waitFor(async () => {
          const current = await message(u, id);
          if (current.hold?.code === 'daily_cap') return 'held';
          return current.status === 'queued' || current.status === 'pending' ? undefined : 'sent';
        }, SETTLED_MS),
      );
    }
    expect(outcomes).toEqual([...Array(6).fill('sent'), ...Array(6).fill('held')]);
  });

  it('caps cold contacts a day: people who wrote, or were answered, are not cold', async () => {
    const u = await app();
    await u.app.store.sendPolicies.putPolicy(
      'number',
      await numberId(u),
      { alreadyWarm: true, channels: { imessage: { dailyCap: null, coldContactDailyCap: 1 } } },
      START,
    );
    const wrote = '+14155550191';
    const inbound = await u.call({
      id: 'in-1',
      type: 'message.inbound',
      channel: 'imessage',
      from: wrote,
      to: UPSTREAM_NUMBER,
      text: 'hi there',
    });
    expect(inbound.statusCode).toBe(200);
    const first = await send(u, '+14155550192');
    expect((await settled(u, first)).status).not.toBe('failed');
    const second = await send(u, '+14155550193');
    expect((await settled(u, second, 'cold_contact_cap')).status).toBe('queued');
    // A reply to someone who wrote, and a second message to the contact already answered, go.
    expect((await settled(u, await send(u, wrote))).status).not.toBe('failed');
    expect((await settled(u, await send(u, '+14155550192'))).status).not.toBe('failed');
    u.clock.advance(DAY_MS);
    expect((await settled(u, second)).status).not.toBe('failed');
  });

  it('fails a message held past the hold window with SEND_POLICY_HOLD_EXPIRED', async () => {
    t = await buildUpstreamApp({
      startAt: START,
      env: { SEND_POLICY_RECHECK_MS: '20', SEND_POLICY_HOLD_WINDOW_MS: String(60 * 60 * 1000) },
    });
    const u = t;
    await u.app.store.sendPolicies.putPolicy(
      'number',
      await numberId(u),
      { alreadyWarm: true, channels: { imessage: { dailyCap: 0 } } },
      START,
    );
    const id = await send(u, '+14155550881');
    expect((await settled(u, id, 'daily_cap')).status).toBe('queued');
    u.clock.advance(60 * 60 * 1000);
    const failed = await settled(u, id);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'SEND_POLICY_HOLD_EXPIRED' });
  });
});

describe('the WhatsApp restricted state', () => {
  it('is entered after three 463 refusals, holds cold contacts only, and ends by itself', async () => {
    // Sends stay `sent` (the simulator's next step is far away), where a refusal may still come.
    const u = await app({ SIMULATOR_STEP_MS: '600000' });
    await u.app.store.sendPolicies.putPolicy(
      'number',
      await numberId(u),
      { alreadyWarm: true },
      START,
    );
    const wrote = '+14155550891';
    await u.call({
      id: 'in-w',
      type: 'message.inbound',
      channel: 'whatsapp',
      from: wrote,
      to: UPSTREAM_NUMBER,
      text: 'hello',
    });
    for (const [index, to] of ['+14155550892', '+14155550893', '+14155550894'].entries()) {
      // Accepted by the upstream (its id known), not yet sent: where WhatsApp's nack arrives.
      const sent = await accepted(u, await send(u, to, 'whatsapp'));
      const refused = await u.call({
        id: `st-${index}`,
        type: 'message.status',
        channel: 'whatsapp',
        externalId: sent.externalId,
        status: 'failed',
        providerCode: '463',
        errorMessage: 'WhatsApp refused the message (error 463)',
      });
      expect(refused.statusCode).toBe(200);
      const failed = await settled(u, sent.id);
      expect(failed.errorMessage).toContain('463');
    }
    const cold = await send(u, '+14155550895', 'whatsapp');
    const held = await settled(u, cold, 'restricted');
    expect(Date.parse(held.hold?.until ?? '')).toBe(START + DAY_MS);
    // A reply to someone who wrote still goes.
    await accepted(u, await send(u, wrote, 'whatsapp'));
    expect((await message(u, cold)).status).toBe('queued');
    u.clock.advance(DAY_MS);
    expect((await accepted(u, cold)).hold ?? null).toBeNull();
  });
});
