import type { MessageList, SwitchboardEvent } from '@switchboard/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { adminHeaders, assignNumber } from '../support/admin-helpers';
import { cli } from '../support/cli-runner';
import { expectFailure, expectSuccess } from '../support/envelope-assertions';
import { buildUpstreamApp, type UpstreamApp } from '../support/simulated-upstream';
import { recordedEvents } from '../support/simulator-app';
import { bearer } from '../support/test-app';
import { instanceWarnings, listUnrouted, metricValue, noneKept } from '../support/unrouted-inbound';
import { waitFor } from '../support/wait-for';

/** A second number of the upstream that no customer was given. */
const SPARE = '+14155550199';
const CONTACT = '+14155550123';
const DAY = 24 * 60 * 60 * 1000;

describe('inbound to an address no customer has (simulated upstream, over HTTP)', () => {
  let t: UpstreamApp;

  afterEach(async () => {
    await t.close();
  });

  const inbound = (id: string, text: string, to = SPARE) =>
    t.call({ id, type: 'message.inbound', externalId: id, from: CONTACT, to, text });

  it('is kept, listed, counted and warned about, then delivered in order once assigned', async () => {
    t = await buildUpstreamApp();
    const events = recordedEvents(t.app, t.customerId);
    expect((await inbound('up-1', 'first')).statusCode).toBe(200);
    expect((await inbound('up-2', 'second')).statusCode).toBe(200);
    const edit = await t.call({
      id: 'up-3',
      type: 'message.changed',
      externalId: 'up-1',
      from: CONTACT,
      to: SPARE,
      change: 'edited',
      text: 'first, edited',
    });
    expect(edit.statusCode).toBe(200);

    const kept = await listUnrouted(t.app);
    expect(kept.total).toBe(3);
    expect(kept.items.map((item) => [item.kind, item.address, item.from, item.reason])).toEqual([
      ['message.inbound', SPARE, CONTACT, 'address_not_assigned'],
      ['message.inbound', SPARE, CONTACT, 'address_not_assigned'],
      ['message.changed', SPARE, CONTACT, 'address_not_assigned'],
    ]);
    expect(kept.items[0]).toMatchObject({ instanceId: t.instance.id, channel: 'imessage' });
    expect(
      Date.parse(kept.items[0]?.expiresAt ?? '') - Date.parse(kept.items[0]?.receivedAt ?? ''),
    ).toBe(t.config.unroutedInboundRetentionMs);
    expect((await listUnrouted(t.app, { address: '+14155550100' })).total).toBe(0);
    expect(
      await metricValue(t.app, 'switchboard_inbound_unrouted_total{kind="message.inbound"}'),
    ).toBe(2);
    expect(await metricValue(t.app, 'switchboard_inbound_unrouted_kept')).toBe(3);
    expect(await instanceWarnings(t.app, t.instance.id)).toContainEqual(
      expect.stringContaining(
        `3 inbound items kept for addresses no customer has on this instance: ${SPARE} (3)`,
      ),
    );
    // Nobody got anything meanwhile.
    expect(events).toEqual([]);

    await assignNumber(t.app, t.customerId, { phoneNumber: SPARE, instanceId: t.instance.id });
    await waitFor(
      () => events.filter((event) => event.type === 'message.edited').length === 1,
      5_000,
      'the kept items delivered',
    );
    expect(events.map((event) => event.type)).toEqual([
      'message.inbound',
      'message.inbound',
      'message.edited',
    ]);
    const texts = events
      .filter(
        (event): event is Extract<SwitchboardEvent, { type: 'message.inbound' }> =>
          event.type === 'message.inbound',
      )
      .map((event) => [event.data.text, event.data.to]);
    expect(texts).toEqual([
      ['first', SPARE],
      ['second', SPARE],
    ]);
    const list = expectSuccess<MessageList>(
      await t.app.inject({ method: 'GET', url: '/v1/messages', headers: bearer(t.key) }),
    );
    expect(list.messages.map((message) => message.content.text).sort()).toEqual([
      'first, edited',
      'second',
    ]);
    await noneKept(t.app);
    expect(await metricValue(t.app, 'switchboard_inbound_unrouted_kept')).toBe(0);
    expect(await instanceWarnings(t.app, t.instance.id)).not.toContainEqual(
      expect.stringContaining('inbound item'),
    );
  });

  it('keeps what an instance reports for another instance’s number, and never hands it over', async () => {
    t = await buildUpstreamApp();
    const events = recordedEvents(t.app, t.customerId);
    const other = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/instances',
      headers: adminHeaders,
      payload: { name: 'other', provider: 'simulator' },
    });
    const otherId = expectSuccess<{ id: string }>(other, 201).id;
    const delivered = await t.app.services.unroutedInbound.deliverAssigned();
    expect(delivered).toBe(0);
    // The customer's own number, reported by an instance that does not serve it.
    await t.app.services.inboundMessages.receive(
      {
        kind: 'message.inbound',
        channel: 'sms',
        occurredAt: new Date(t.clock.now()),
        externalId: 'elsewhere-1',
        from: CONTACT,
        to: '+14155550100',
        isGroup: false,
        text: 'wrong instance',
        attachments: [],
      },
      { instanceId: otherId, instanceName: 'other', provider: 'simulator', channels: ['sms'] },
    );
    const kept = await listUnrouted(t.app, { instanceId: otherId });
    expect(kept.items.map((item) => item.reason)).toEqual(['address_on_other_instance']);
    expect(await t.app.services.unroutedInbound.deliverAssigned()).toBe(0);
    expect(events).toEqual([]);
  });

  it('discards one item, or every item of an address, on the operator’s word', async () => {
    t = await buildUpstreamApp();
    await inbound('up-1', 'one');
    await inbound('up-2', 'two');
    await inbound('up-3', 'three', '+14155550198');
    const [first] = (await listUnrouted(t.app, { address: SPARE })).items;
    const discarded = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/unrouted-inbound/${first?.id}`,
      headers: adminHeaders,
    });
    expect(expectSuccess(discarded)).toEqual({ id: first?.id, discarded: true });
    expectFailure(
      await t.app.inject({
        method: 'DELETE',
        url: `/admin/v1/unrouted-inbound/${first?.id}`,
        headers: adminHeaders,
      }),
      404,
      'NOT_FOUND',
    );
    expect((await listUnrouted(t.app)).total).toBe(2);
    expectFailure(
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/unrouted-inbound/discard',
        headers: adminHeaders,
        payload: {},
      }),
      400,
      'VALIDATION_ERROR',
    );
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/unrouted-inbound/discard',
      headers: adminHeaders,
      payload: { address: SPARE },
    });
    expect(expectSuccess(bulk)).toEqual({ discarded: 1 });
    expect((await listUnrouted(t.app)).items.map((item) => item.address)).toEqual(['+14155550198']);
    expectFailure(
      await t.app.inject({ method: 'GET', url: '/admin/v1/unrouted-inbound' }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('forgets kept items once their retention has passed (an injected clock)', async () => {
    t = await buildUpstreamApp({ env: { UNROUTED_INBOUND_RETENTION_MS: String(2 * DAY) } });
    await inbound('up-1', 'old');
    t.clock.advance(DAY);
    await inbound('up-2', 'newer');
    t.clock.advance(DAY + 1);
    expect((await listUnrouted(t.app)).items.map((item) => item.from)).toEqual([CONTACT]);
    t.clock.advance(DAY);
    expect((await listUnrouted(t.app)).total).toBe(0);
  });

  it('is listed and discarded by the CLI on the same database', async () => {
    // The CLI reads the system clock: kept items must be young by it.
    t = await buildUpstreamApp({ store: 'sqlite', startAt: Date.now() });
    await inbound('up-1', 'one');
    await inbound('up-2', 'two', 'alias@example.com');
    const env = { DATABASE_URL: t.databasePath };
    const listed = await cli(['unrouted', 'list', '--instance', 'upstream'], env, undefined, true);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/ID\s+RECEIVED\s+ADDRESS\s+KIND\s+FROM\s+REASON/);
    const rows = listed.stdout.split('\n').map((line) => line.split(/\s+/).slice(2));
    expect(rows).toContainEqual([SPARE, 'message.inbound', CONTACT, 'address_not_assigned']);
    expect(listed.stdout).toContain('2 kept;');
    const json = await cli(
      ['unrouted', 'list', '--address', SPARE, '--json'],
      env,
      undefined,
      true,
    );
    const items = (JSON.parse(json.stdout) as { items: { id: string }[]; total: number }).items;
    expect(items).toHaveLength(1);
    const one = await cli(['unrouted', 'discard', items[0]?.id ?? ''], env, undefined, true);
    expect(one).toMatchObject({ code: 0, stdout: `Discarded ${items[0]?.id}.\n` });
    const again = await cli(['unrouted', 'discard', items[0]?.id ?? ''], env, undefined, true);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No kept inbound item');
    const none = await cli(['unrouted', 'discard'], env, undefined, true);
    expect(none.code).toBe(1);
    const all = await cli(
      ['unrouted', 'discard', '--address', 'alias@example.com'],
      env,
      undefined,
      true,
    );
    expect(all).toMatchObject({ code: 0, stdout: 'Discarded 1 kept inbound items.\n' });
    expect((await listUnrouted(t.app)).total).toBe(0);
  });
});
