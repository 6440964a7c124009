import { randomUUID } from 'node:crypto';
import type { ProviderInboundEventKind, ProviderWebhookRequest } from '@switchboard/provider-kit';
import { MemoryProviderStateStore } from '@switchboard/provider-kit';
import { describe, expect, it } from 'vitest';
import { type ConformanceRun, sendRequest, sentRef } from './provider-conformance-run';
import { type ProviderEventRecorder, startWithRecorder } from './provider-test-support';

/** Availability for the adapter's own channels only, and its health, in shape. */
export function describeAvailabilityAndHealth(run: ConformanceRun): void {
  const { channel, recipients } = run;
  it('answers availability for its own channels only', async () => {
    const reachable = await run.provider.checkAvailability({ address: recipients.deliverable });
    expect(reachable.address).toBe(recipients.deliverable);
    expect(reachable.channels[channel]).toBe(true);
    expect(typeof reachable.checkedAt).toBe('number');
    for (const key of Object.keys(reachable.channels)) {
      expect(run.provider.channels).toContain(key);
    }
    if (recipients.unreachable !== undefined) {
      const unreachable = await run.provider.checkAvailability({
        address: recipients.unreachable,
      });
      expect(unreachable.channels[channel]).toBe(false);
    }
  });

  it('reports its health', async () => {
    const health = await run.provider.health();
    expect(['healthy', 'degraded', 'unhealthy', 'unknown']).toContain(health.status);
    expect(Array.isArray(health.warnings)).toBe(true);
    for (const warning of health.warnings) {
      expect(warning.code.length).toBeGreaterThan(0);
      expect(warning.message.length).toBeGreaterThan(0);
    }
    expect(typeof health.checkedAt).toBe('number');
  });
}

/** Reconciliation: fetchStatus answers the furthest status reported. */
export function describeReconciliation(run: ConformanceRun): void {
  const { options, channel, recipients, timeoutMs } = run;
  it('reconciles: fetchStatus answers the furthest status reported', async () => {
    const fetchStatus = run.provider.fetchStatus?.bind(run.provider);
    if (!fetchStatus) return;
    const { externalId } = await run.provider.send(sendRequest(options, recipients.deliverable));
    const last = options.lifecycle.at(-1) ?? 'sent';
    await run.recorder.waitForStatus(externalId, last, timeoutMs);
    const snapshot = await fetchStatus({
      channel,
      from: options.from,
      message: sentRef(externalId, recipients.deliverable),
    });
    expect(snapshot?.status).toBe(last);
  });
}

/** Every kind of inbound event the upstream produces reaches the sink. */
export function describeInboundEvents(run: ConformanceRun): void {
  const { options, channel, recipients, timeoutMs } = run;
  it('reports every kind of inbound event its upstream produces', async () => {
    const triggers = options.inbound ?? {};
    const required: ProviderInboundEventKind[] = [
      'message.inbound',
      ...(options.supports.react ? (['message.reaction'] as const) : []),
    ];
    for (const kind of required) {
      expect(triggers[kind], `the suite needs a trigger for ${kind}`).toBeDefined();
    }
    for (const [kind, trigger] of Object.entries(triggers)) {
      if (!trigger) continue;
      const before = run.recorder.events.length;
      await trigger(run.provider, recipients.deliverable);
      const event = await run.recorder.waitFor(
        (candidate) => candidate.kind === kind && run.recorder.events.indexOf(candidate) >= before,
        timeoutMs,
      );
      expect(event.channel).toBe(channel);
      expect(event.occurredAt).toBeInstanceOf(Date);
      if (event.kind === 'message.inbound') {
        for (const attachment of event.attachments) {
          expect(attachment.mimeType.length).toBeGreaterThan(0);
          expect(['bytes', 'url', 'unavailable']).toContain(attachment.content.kind);
        }
      }
    }
  });
}

/** WhatsApp sessions, for adapters that link devices: paired, kept in the state store, reconnected after a restart. */
export function describeWhatsAppSessions(run: ConformanceRun): void {
  const { options, timeoutMs } = run;
  const whatsapp = options.whatsapp;
  if (whatsapp) {
    it('pairs a WhatsApp session, keeps it in its state store, and reconnects after a restart without a new QR code', async () => {
      const sessions = run.provider.whatsappSessions;
      if (!sessions)
        throw new Error(`${options.name} has whatsapp options but no whatsappSessions`);
      await run.provider.stop();
      await run.subject.cleanup?.();
      const state = new MemoryProviderStateStore();
      const connection = (recorded: ProviderEventRecorder, status: string) =>
        recorded.waitFor(
          (event) =>
            event.kind === 'whatsapp.connection' &&
            event.phoneNumber === whatsapp.phoneNumber &&
            event.state === status,
          timeoutMs,
        );
      // A new life of the provider on `state`, its session of the number enabled.
      const live = async () => {
        run.subject = await options.create();
        run.provider = run.subject.provider;
        ({ recorder: run.recorder } = await startWithRecorder(
          run.provider,
          undefined,
          state,
          run.subject.webhookUrl,
        ));
        await run.provider.whatsappSessions?.enable(whatsapp.phoneNumber);
      };
      // First life: a QR code, the phone links, connected; what it learned is in the store.
      await live();
      await connection(run.recorder, 'qr_pending');
      await whatsapp.link(run.provider, whatsapp.phoneNumber);
      await connection(run.recorder, 'connected');
      expect((await state.keys('')).length).toBeGreaterThan(0);
      await run.provider.stop();
      await run.subject.cleanup?.();
      // Second life, same store: connected again, no QR code asked for.
      await live();
      await connection(run.recorder, 'connected');
      expect(
        run.recorder.events.some(
          (event) => event.kind === 'whatsapp.connection' && event.state === 'qr_pending',
        ),
      ).toBe(false);
      expect((await run.provider.whatsappSessions?.getSession(whatsapp.phoneNumber))?.status).toBe(
        'connected',
      );
    });
  }
}

/** The ingress, for adapters that take webhooks: genuine, forged, redelivered and out-of-order calls. */
export function describeIngress(run: ConformanceRun): void {
  const { options, recipients } = run;
  const ingress = options.ingress;
  if (ingress) {
    describe('its ingress', () => {
      const call = async (request: ProviderWebhookRequest) => {
        const handle = run.provider.handleWebhook?.bind(run.provider);
        if (!handle) throw new Error(`${options.name} has an ingress but no handleWebhook`);
        return handle(request);
      };

      it('turns a genuine call into an event tagged with the upstream event id, then answers 2xx', async () => {
        const id = `up-${randomUUID()}`;
        const response = await call(
          ingress.inbound({ id, from: recipients.deliverable, text: 'hi' }),
        );
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(300);
        const event = run.recorder.events.find((e) => e.upstreamEventId === id);
        expect(event?.kind).toBe('message.inbound');
        if (event?.kind === 'message.inbound') expect(event.text).toBe('hi');
      });

      it('refuses a call with a bad signature with 4xx, reporting nothing', async () => {
        const id = `up-${randomUUID()}`;
        const response = await call(
          ingress.forged({ id, from: recipients.deliverable, text: 'hi' }),
        );
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(run.recorder.events.some((e) => e.upstreamEventId === id)).toBe(false);
      });

      it('tags a redelivered call with the same upstream event id (so the gateway drops it)', async () => {
        const id = `up-${randomUUID()}`;
        const input = { id, from: recipients.deliverable, text: 'twice' };
        await call(ingress.inbound(input));
        await call(ingress.inbound(input));
        const tagged = run.recorder.events.filter((e) => e.upstreamEventId === id);
        expect(tagged.length).toBeGreaterThanOrEqual(1);
        expect(new Set(tagged.map((e) => e.kind))).toEqual(new Set(['message.inbound']));
      });

      it('reports status callbacks that arrive out of order, each with its own upstream event id', async () => {
        const { externalId } = await run.provider.send(
          sendRequest(options, recipients.deliverable),
        );
        await call(ingress.status({ id: `up-${randomUUID()}`, externalId, status: 'delivered' }));
        await call(ingress.status({ id: `up-${randomUUID()}`, externalId, status: 'sent' }));
        const of = (status: string) =>
          run.recorder.events.find(
            (e) =>
              e.kind === 'message.status' &&
              e.externalId === externalId &&
              e.status === status &&
              e.upstreamEventId !== undefined,
          );
        const delivered = of('delivered');
        const sent = of('sent');
        expect(delivered).toMatchObject({ kind: 'message.status', externalId });
        expect(sent).toMatchObject({ kind: 'message.status', externalId });
        expect(delivered?.upstreamEventId).not.toBe(sent?.upstreamEventId);
      });
    });
  }
}
