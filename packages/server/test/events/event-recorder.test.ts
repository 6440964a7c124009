import type { SwitchboardEvent } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/events/event-recorder';
import { createCustomer } from '../support/admin-helpers';
import { buildTestApp } from '../support/test-app';

const COR = 'cor_0123456789abcdef0123456789abcdef';

const lifecycle = {
  messageId: 'msg_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
  externalMessageId: null,
  from: '+14155550100',
  to: '+14155550123',
  text: 'hello',
  channel: 'imessage',
  metadata: null,
  status: 'queued',
} as const;

describe('EventRecorder (services.events)', () => {
  it('mints the id and timestamp, validates and serializes the envelope, and publishes after commit', async () => {
    const { app, clock } = await buildTestApp();
    const customer = await createCustomer(app);
    const seen: RecordedEvent[] = [];
    app.services.events.bus.subscribe(customer.id, (event) => seen.push(event));

    const recorded = await app.store.transaction(async (tx) => {
      const event = await app.services.events.record(tx, {
        customerId: customer.id,
        type: 'message.queued',
        correlationId: COR,
        messageId: lifecycle.messageId,
        data: lifecycle,
      });
      expect(seen).toEqual([]);
      return event;
    });

    expect(recorded.id).toMatch(/^evt_[0-9a-f-]{36}$/);
    const body = JSON.parse(recorded.payload) as SwitchboardEvent;
    expect(body).toEqual({
      id: recorded.id,
      type: 'message.queued',
      timestamp: new Date(clock.now()).toISOString(),
      data: lifecycle,
    });
    expect(seen).toEqual([recorded]);
    expect(await app.store.events.findById(customer.id, recorded.id)).toMatchObject({
      payload: recorded.payload,
      correlationId: COR,
      messageId: lifecycle.messageId,
    });
  });

  it('keeps FaceTime bodies flat, with eventId as the id', async () => {
    const { app } = await buildTestApp();
    const customer = await createCustomer(app);
    const recorded = await app.store.transaction((tx) =>
      app.services.events.record(tx, {
        customerId: customer.id,
        type: 'facetime.incoming',
        correlationId: COR,
        callUuid: 'call-1',
        to: '+14155550100',
        isAudio: true,
        isVideo: false,
        caller: '+14155550123',
        timestamp: 1_767_225_600_000,
      }),
    );
    expect(JSON.parse(recorded.payload)).toEqual({
      type: 'facetime.incoming',
      eventId: recorded.id,
      callUuid: 'call-1',
      to: '+14155550100',
      isAudio: true,
      isVideo: false,
      caller: '+14155550123',
      timestamp: 1_767_225_600_000,
    });
  });

  it('refuses a malformed event (a programming error) and records nothing', async () => {
    const { app } = await buildTestApp();
    const customer = await createCustomer(app);
    await expect(
      app.store.transaction((tx) =>
        app.services.events.record(tx, {
          customerId: customer.id,
          type: 'message.sent',
          correlationId: COR,
          // @ts-expect-error status is not a message status
          data: { ...lifecycle, status: 'teleported' },
        }),
      ),
    ).rejects.toThrow(/malformed message.sent event: data.status/);
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const { app } = await buildTestApp();
    const customer = await createCustomer(app);
    const seen: RecordedEvent[] = [];
    app.services.events.bus.subscribe(customer.id, (event) => seen.push(event));
    let id = '';
    await expect(
      app.store.transaction(async (tx) => {
        id = (
          await app.services.events.record(tx, {
            customerId: customer.id,
            type: 'message.queued',
            correlationId: COR,
            data: lifecycle,
          })
        ).id;
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    expect(seen).toEqual([]);
    expect(await app.store.events.findById(customer.id, id)).toBeUndefined();
  });

  it('drops the events of a rolled-back savepoint but keeps the enclosing ones', async () => {
    const { app } = await buildTestApp();
    const customer = await createCustomer(app);
    const seen: string[] = [];
    app.services.events.bus.subscribe(customer.id, (event) => seen.push(event.type));
    const event = (type: 'message.queued' | 'message.sent') => ({
      customerId: customer.id,
      type,
      correlationId: COR,
      data: lifecycle,
    });
    await app.store.transaction(async (tx) => {
      await app.services.events.record(tx, event('message.queued'));
      await tx
        .transaction(async (inner) => {
          await app.services.events.record(inner, event('message.sent'));
          throw new Error('inner failure');
        })
        .catch(() => undefined);
    });
    expect(seen).toEqual(['message.queued']);
  });
});
