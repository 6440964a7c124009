import { randomUUID } from 'node:crypto';
import { type Channel, isErrorCode } from '@switchboard/contract';
import type {
  MessagingProvider,
  ProviderInboundEvent,
  ProviderInboundEventKind,
  ProviderMessageRef,
  ProviderSendRequest,
  ProviderWebhookRequest,
} from '@switchboard/provider-kit';
import {
  isProviderError,
  MemoryProviderStateStore,
  PROVIDER_ERROR_CODES,
  type ProviderErrorCode,
} from '@switchboard/provider-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderEventRecorder, startWithRecorder } from './provider-test-support';

/** A provider under test, and how to tear down what it needed (a fake upstream). */
export interface ProviderConformanceSubject {
  /** A new, not yet started provider instance. */
  provider: MessagingProvider;
  /** Releases what the subject needed, after the provider stopped. */
  cleanup?: () => Promise<void>;
  /** The ingress URL to start the provider with, for upstreams that call back (an ingress relay). */
  webhookUrl?: string;
}

/** How one adapter runs the conformance suite for one channel. */
export interface ProviderConformanceOptions {
  /** The adapter's name in test titles. */
  name: string;
  /** The channel under test; the instance must serve it. */
  channel: Channel;
  /** The instance address to send from. */
  from: string;
  /** Builds a fresh subject for each test. */
  create: () => ProviderConformanceSubject | Promise<ProviderConformanceSubject>;
  /** Recipients whose behaviour the adapter's upstream (or fake) guarantees. */
  recipients: {
    /** Accepts messages and reports `lifecycle`. */
    deliverable: string;
    /** Not reachable on the channel. */
    unreachable?: string;
    /** Reachable, but every delivery fails. */
    failing?: string;
    /**
     * The members of the group the suite creates (default: `deliverable` alone); iMessage needs
     * two, since a one-member group is the direct chat.
     */
    groupMembers?: readonly string[];
    /** Recipients of messages whose edits fail, with the code each edit fails with. */
    editFailures?: readonly { address: string; code: 'EDIT_FAILED' | 'PROVIDER_TIMEOUT' }[];
  };
  /** The statuses a message to `recipients.deliverable` reports, in order. */
  lifecycle: readonly ('sent' | 'delivered' | 'read')[];
  /** Which operations the channel supports; the others must reject with CHANNEL_NOT_SUPPORTED. */
  supports: { edit: boolean; unsend: boolean; react: boolean; typing: boolean; groups?: boolean };
  /** How long to wait for an event (default 5 s). */
  timeoutMs?: number;
  /**
   * The upstream's webhooks, for adapters that take them (`handleWebhook`): calls as the fake
   * upstream makes them. Omit for adapters that get their events otherwise (Baileys' socket).
   */
  ingress?: ProviderConformanceIngress;
  /**
   * For adapters that link WhatsApp devices (`whatsappSessions`): an owned number and how the
   * fake upstream completes its pairing (scanning the QR code the adapter reported).
   */
  /**
   * How the fake upstream makes each kind of inbound event happen (a webhook call, a socket
   * event): the suite triggers each and checks the event. `message.inbound` is required, and
   * `message.reaction` when the channel supports reactions.
   */
  inbound?: Partial<
    Record<ProviderInboundEventKind, (provider: MessagingProvider, from: string) => Promise<void>>
  >;
  whatsapp?: {
    /** The owned number to pair, E.164. */
    phoneNumber: string;
    /** Completes the pairing of `phoneNumber` upstream. */
    link(provider: MessagingProvider, phoneNumber: string): Promise<void>;
  };
}

/** Calls of an upstream to the adapter's `handleWebhook`, as its faithful fake makes them. */
export interface ProviderConformanceIngress {
  /** A genuine call: a message `text` from `from` to the instance, upstream event id `id`. */
  inbound(input: { id: string; from: string; text: string }): ProviderWebhookRequest;
  /** The same call with a signature the upstream did not make (or none). */
  forged(input: { id: string; from: string; text: string }): ProviderWebhookRequest;
  /** A genuine status callback of a message the adapter sent, upstream event id `id`. */
  status(input: {
    id: string;
    externalId: string;
    status: 'sent' | 'delivered';
  }): ProviderWebhookRequest;
}

/** A send request for the conformance suite. */
function sendRequest(
  options: ProviderConformanceOptions,
  address: string,
  overrides: Partial<ProviderSendRequest> = {},
): ProviderSendRequest {
  const messageId = `msg_${randomUUID()}`;
  return {
    channel: options.channel,
    from: options.from,
    to: { type: 'address', address },
    messageId,
    attempt: 0,
    attemptId: `${messageId}:0:${options.channel}`,
    text: 'Conformance check',
    ...overrides,
  };
}

/** The reference of a message sent to `address`. */
function sentRef(externalId: string, address: string): ProviderMessageRef {
  return { externalId, conversation: { type: 'address', address }, fromMe: true };
}

/** Asserts that `promise` rejects with a `ProviderError` carrying `code`. */
async function expectProviderError(
  promise: Promise<unknown>,
  code: ProviderErrorCode,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isProviderError(error), `expected a ProviderError ${code}, got ${String(error)}`).toBe(
    true,
  );
  if (isProviderError(error)) {
    expect(error.code).toBe(code);
    expect(error.message.length).toBeGreaterThan(0);
  }
}

/**
 * The shared test suite every provider adapter passes, per channel it serves: sends answer an
 * `externalId`, statuses arrive in order through the sink, failures carry spec error codes,
 * operations a channel lacks answer `CHANNEL_NOT_SUPPORTED`, availability and health answer in
 * shape, and nothing reaches the sink after `stop`.
 * @example describeProviderConformance({ name: 'simulator', channel: 'sms', ... });
 */
export function describeProviderConformance(options: ProviderConformanceOptions): void {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const { channel, recipients } = options;

  describe(`${options.name} conforms to the provider port on ${channel}`, () => {
    let subject: ProviderConformanceSubject;
    let provider: MessagingProvider;
    let recorder: ProviderEventRecorder;

    const start = async (custom?: ProviderEventRecorder): Promise<void> => {
      subject = await options.create();
      provider = subject.provider;
      ({ recorder } = await startWithRecorder(provider, custom, undefined, subject.webhookUrl));
    };

    const statusOf = (event: ProviderInboundEvent, externalId: string): string | undefined =>
      event.kind === 'message.status' && event.externalId === externalId ? event.status : undefined;

    beforeEach(async () => {
      await start();
    });

    afterEach(async () => {
      await provider.stop();
      await subject.cleanup?.();
    });

    it('declares the channel under test and its adapter name', () => {
      expect(provider.channels).toContain(channel);
      expect(provider.provider.length).toBeGreaterThan(0);
      expect(provider.instanceName.length).toBeGreaterThan(0);
    });

    it('answers each send with its own non-empty externalId', async () => {
      const first = await provider.send(sendRequest(options, recipients.deliverable));
      const second = await provider.send(sendRequest(options, recipients.deliverable));
      expect(first.externalId).toEqual(expect.any(String));
      expect(first.externalId.length).toBeGreaterThan(0);
      expect(second.externalId).not.toBe(first.externalId);
    });

    it('reports the lifecycle in order through the sink, keyed by the externalId', async () => {
      const request = sendRequest(options, recipients.deliverable);
      const { externalId } = await provider.send(request);
      const last = options.lifecycle.at(-1);
      if (!last) throw new Error('the lifecycle must name at least one status');
      await recorder.waitForStatus(externalId, last, timeoutMs);
      expect(recorder.statusesOf(externalId)).toEqual(options.lifecycle);
      for (const event of recorder.ofKind('message.status')) {
        expect(event.channel).toBe(channel);
        expect(event.occurredAt).toBeInstanceOf(Date);
        if (event.attemptId !== undefined) expect(event.attemptId).toBe(request.attemptId);
      }
    });

    it('waits for the sink to record a status before reporting the next one', async () => {
      await provider.stop();
      await subject.cleanup?.();
      const slow = new ProviderEventRecorder({
        hold: () => new Promise((resolve) => setTimeout(resolve, 15)),
      });
      await start(slow);
      const { externalId } = await provider.send(sendRequest(options, recipients.deliverable));
      const last = options.lifecycle.at(-1) ?? 'sent';
      await slow.waitForStatus(externalId, last, timeoutMs);
      expect(slow.statusesOf(externalId)).toEqual(options.lifecycle);
      expect(slow.maxConcurrentDeliveries).toBe(1);
    });

    if (recipients.unreachable !== undefined) {
      const unreachable = recipients.unreachable;
      it('refuses a recipient the channel cannot reach with NO_CHANNEL_AVAILABLE, allowing fallback', async () => {
        const error = await provider.send(sendRequest(options, unreachable)).then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(isProviderError(error)).toBe(true);
        if (!isProviderError(error)) return;
        expect(error.code).toBe('NO_CHANNEL_AVAILABLE');
        expect(error.fallback).toBe(true);
      });
    }

    if (recipients.failing !== undefined) {
      const failing = recipients.failing;
      it('reports a failed delivery with a spec error code, by rejection or failed status', async () => {
        const outcome = await provider.send(sendRequest(options, failing)).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome) {
          expect(isProviderError(outcome.error)).toBe(true);
          if (!isProviderError(outcome.error)) return;
          expect(PROVIDER_ERROR_CODES).toContain(outcome.error.code);
          expect(isErrorCode(outcome.error.code)).toBe(true);
          expect(typeof outcome.error.retryable).toBe('boolean');
          expect(typeof outcome.error.fallback).toBe('boolean');
          expect(outcome.error.message.length).toBeGreaterThan(0);
          return;
        }
        const { externalId } = outcome.result;
        const failed = await recorder.waitFor(
          (event) => statusOf(event, externalId) === 'failed',
          timeoutMs,
        );
        if (failed.kind !== 'message.status' || failed.status !== 'failed') return;
        expect(isErrorCode(failed.error.code)).toBe(true);
        expect(failed.error.message.length).toBeGreaterThan(0);
      });
    }

    if (options.supports.edit) {
      it('edits a delivered message', async () => {
        const { externalId } = await provider.send(sendRequest(options, recipients.deliverable));
        await recorder.waitForStatus(externalId, 'sent', timeoutMs);
        await expect(
          provider.edit({
            channel,
            from: options.from,
            message: sentRef(externalId, recipients.deliverable),
            text: 'Edited text',
          }),
        ).resolves.toBeUndefined();
      });

      for (const failure of recipients.editFailures ?? []) {
        it(`answers ${failure.code} when the upstream cannot edit`, async () => {
          const { externalId } = await provider.send(sendRequest(options, failure.address));
          await recorder.waitForStatus(externalId, 'sent', timeoutMs);
          await expectProviderError(
            provider.edit({
              channel,
              from: options.from,
              message: sentRef(externalId, failure.address),
              text: 'Edited text',
            }),
            failure.code,
          );
        });
      }
    } else {
      it('refuses edits with CHANNEL_NOT_SUPPORTED', async () => {
        await expectProviderError(
          provider.edit({
            channel,
            from: options.from,
            message: sentRef('unknown', recipients.deliverable),
            text: 'Edited text',
          }),
          'CHANNEL_NOT_SUPPORTED',
        );
      });
    }

    if (options.supports.unsend) {
      it('unsends a sent message', async () => {
        const { externalId } = await provider.send(sendRequest(options, recipients.deliverable));
        await recorder.waitForStatus(externalId, 'sent', timeoutMs);
        await expect(
          provider.unsend({
            channel,
            from: options.from,
            message: sentRef(externalId, recipients.deliverable),
          }),
        ).resolves.toBeUndefined();
      });
    } else {
      it('refuses unsend with CHANNEL_NOT_SUPPORTED', async () => {
        await expectProviderError(
          provider.unsend({
            channel,
            from: options.from,
            message: sentRef('unknown', recipients.deliverable),
          }),
          'CHANNEL_NOT_SUPPORTED',
        );
      });
    }

    if (options.supports.react) {
      it('adds and removes tapback and emoji reactions', async () => {
        const { externalId } = await provider.send(sendRequest(options, recipients.deliverable));
        await recorder.waitForStatus(externalId, 'sent', timeoutMs);
        const message = sentRef(externalId, recipients.deliverable);
        const base = { channel, from: options.from, message };
        await expect(
          provider.react({ ...base, reaction: { type: 'love' }, remove: false }),
        ).resolves.toBeUndefined();
        await expect(
          provider.react({ ...base, reaction: { type: 'love' }, remove: true }),
        ).resolves.toBeUndefined();
        await expect(
          provider.react({ ...base, reaction: { type: 'emoji', emoji: '🎉' }, remove: false }),
        ).resolves.toBeUndefined();
      });
    } else {
      it('refuses reactions with CHANNEL_NOT_SUPPORTED', async () => {
        await expectProviderError(
          provider.react({
            channel,
            from: options.from,
            message: sentRef('unknown', recipients.deliverable),
            reaction: { type: 'like' },
            remove: false,
          }),
          'CHANNEL_NOT_SUPPORTED',
        );
      });
    }

    if (options.supports.typing) {
      it('starts and stops the typing indicator', async () => {
        const to = { type: 'address', address: recipients.deliverable } as const;
        const base = { channel, from: options.from, to };
        await expect(provider.typing({ ...base, status: 'start' })).resolves.toBeUndefined();
        await expect(provider.typing({ ...base, status: 'stop' })).resolves.toBeUndefined();
      });
    } else {
      it('refuses typing indicators with CHANNEL_NOT_SUPPORTED', async () => {
        await expectProviderError(
          provider.typing({
            channel,
            from: options.from,
            to: { type: 'address', address: recipients.deliverable },
            status: 'start',
          }),
          'CHANNEL_NOT_SUPPORTED',
        );
      });
    }

    it('answers availability for its own channels only', async () => {
      const reachable = await provider.checkAvailability({ address: recipients.deliverable });
      expect(reachable.address).toBe(recipients.deliverable);
      expect(reachable.channels[channel]).toBe(true);
      expect(typeof reachable.checkedAt).toBe('number');
      for (const key of Object.keys(reachable.channels)) {
        expect(provider.channels).toContain(key);
      }
      if (recipients.unreachable !== undefined) {
        const unreachable = await provider.checkAvailability({
          address: recipients.unreachable,
        });
        expect(unreachable.channels[channel]).toBe(false);
      }
    });

    it('reports its health', async () => {
      const health = await provider.health();
      expect(['healthy', 'degraded', 'unhealthy', 'unknown']).toContain(health.status);
      expect(Array.isArray(health.warnings)).toBe(true);
      for (const warning of health.warnings) {
        expect(warning.code.length).toBeGreaterThan(0);
        expect(warning.message.length).toBeGreaterThan(0);
      }
      expect(typeof health.checkedAt).toBe('number');
    });

    it('reconciles: fetchStatus answers the furthest status reported', async () => {
      const fetchStatus = provider.fetchStatus?.bind(provider);
      if (!fetchStatus) return;
      const { externalId } = await provider.send(sendRequest(options, recipients.deliverable));
      const last = options.lifecycle.at(-1) ?? 'sent';
      await recorder.waitForStatus(externalId, last, timeoutMs);
      const snapshot = await fetchStatus({
        channel,
        from: options.from,
        message: sentRef(externalId, recipients.deliverable),
      });
      expect(snapshot?.status).toBe(last);
    });

    const unserved = (['imessage', 'sms', 'whatsapp'] as const).filter(
      (other) => other !== channel,
    );
    it('refuses a send on a channel the instance does not serve with CHANNEL_NOT_SUPPORTED', async () => {
      const other = unserved.find((candidate) => !provider.channels.includes(candidate));
      if (!other) return;
      await expectProviderError(
        provider.send({ ...sendRequest(options, recipients.deliverable), channel: other }),
        'CHANNEL_NOT_SUPPORTED',
      );
    });

    it('sends attachments, as bytes and as URLs, through their whole lifecycle', async () => {
      const result = await provider.send(
        sendRequest(options, recipients.deliverable, {
          text: 'Two files',
          attachments: [
            {
              source: { kind: 'bytes', data: new Uint8Array([137, 80, 78, 71]) },
              mimeType: 'image/png',
              filename: 'a.png',
              publicUrl:
                'https://switchboard.example.com/v1/attachments/media_x_0?expires=1&signature=0',
            },
            {
              source: { kind: 'url', url: 'https://cdn.example.com/b.png' },
              mimeType: 'image/png',
            },
          ],
        }),
      );
      expect(result.externalId.length).toBeGreaterThan(0);
      const ids = result.parts?.map((part) => part.externalId) ?? [result.externalId];
      expect(new Set(ids).size).toBe(ids.length);
      const last = options.lifecycle.at(-1);
      if (!last) throw new Error('the lifecycle must name at least one status');
      for (const id of ids) await recorder.waitForStatus(id, last, timeoutMs);
    });

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
        const before = recorder.events.length;
        await trigger(provider, recipients.deliverable);
        const event = await recorder.waitFor(
          (candidate) => candidate.kind === kind && recorder.events.indexOf(candidate) >= before,
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

    if (options.supports.groups) {
      it('creates a group, knows its members, renames it and sends into it', async () => {
        const chat = await provider.createGroup({
          channel,
          from: options.from,
          participants: recipients.groupMembers ?? [recipients.deliverable],
          name: 'Conformance',
          text: 'Welcome',
        });
        expect(chat.isGroup).toBe(true);
        expect(chat.channel).toBe(channel);
        const known = await provider.getChat({ channel, from: options.from, chatId: chat.chatId });
        expect(known?.participants.length).toBeGreaterThanOrEqual(1);
        await provider.renameGroup({
          channel,
          from: options.from,
          chatId: chat.chatId,
          name: 'Renamed',
        });
        expect(
          (await provider.getChat({ channel, from: options.from, chatId: chat.chatId }))?.name,
        ).toBe('Renamed');
        const sent = await provider.send(
          sendRequest(options, recipients.deliverable, {
            to: { type: 'chat', chatId: chat.chatId },
          }),
        );
        expect(sent.externalId.length).toBeGreaterThan(0);
      });
    }

    const whatsapp = options.whatsapp;
    if (whatsapp) {
      it('pairs a WhatsApp session, keeps it in its state store, and reconnects after a restart without a new QR code', async () => {
        const sessions = provider.whatsappSessions;
        if (!sessions)
          throw new Error(`${options.name} has whatsapp options but no whatsappSessions`);
        await provider.stop();
        await subject.cleanup?.();
        const state = new MemoryProviderStateStore();
        const connection = (recorded: ProviderEventRecorder, status: string) =>
          recorded.waitFor(
            (event) =>
              event.kind === 'whatsapp.connection' &&
              event.phoneNumber === whatsapp.phoneNumber &&
              event.state === status,
            timeoutMs,
          );
        // First life: a QR code, the phone links, connected; what it learned is in the store.
        subject = await options.create();
        provider = subject.provider;
        ({ recorder } = await startWithRecorder(provider, undefined, state, subject.webhookUrl));
        await provider.whatsappSessions?.enable(whatsapp.phoneNumber);
        await connection(recorder, 'qr_pending');
        await whatsapp.link(provider, whatsapp.phoneNumber);
        await connection(recorder, 'connected');
        expect((await state.keys('')).length).toBeGreaterThan(0);
        await provider.stop();
        await subject.cleanup?.();
        // Second life, same store: connected again, no QR code asked for.
        subject = await options.create();
        provider = subject.provider;
        ({ recorder } = await startWithRecorder(provider, undefined, state, subject.webhookUrl));
        await provider.whatsappSessions?.enable(whatsapp.phoneNumber);
        await connection(recorder, 'connected');
        expect(
          recorder.events.some(
            (event) => event.kind === 'whatsapp.connection' && event.state === 'qr_pending',
          ),
        ).toBe(false);
        expect((await provider.whatsappSessions?.getSession(whatsapp.phoneNumber))?.status).toBe(
          'connected',
        );
      });
    }

    it('sends a re-driven attempt (the same attemptId) once upstream', async () => {
      const request = sendRequest(options, recipients.deliverable);
      const first = await provider.send(request);
      const again = await provider.send(request);
      expect(again.externalId).toBe(first.externalId);
      const last = options.lifecycle.at(-1);
      if (!last) throw new Error('the lifecycle must name at least one status');
      await recorder.waitForStatus(first.externalId, last, timeoutMs);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Each status once: one lifecycle, not two. In any order, as an upstream posts each status
      // on its own request (Twilio's callbacks can overtake one another on a busy machine).
      expect([...recorder.statusesOf(first.externalId)].sort()).toEqual(
        [...options.lifecycle].sort(),
      );
    });

    const ingress = options.ingress;
    if (ingress) {
      describe('its ingress', () => {
        const call = async (request: ProviderWebhookRequest) => {
          const handle = provider.handleWebhook?.bind(provider);
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
          const event = recorder.events.find((e) => e.upstreamEventId === id);
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
          expect(recorder.events.some((e) => e.upstreamEventId === id)).toBe(false);
        });

        it('tags a redelivered call with the same upstream event id (so the gateway drops it)', async () => {
          const id = `up-${randomUUID()}`;
          const input = { id, from: recipients.deliverable, text: 'twice' };
          await call(ingress.inbound(input));
          await call(ingress.inbound(input));
          const tagged = recorder.events.filter((e) => e.upstreamEventId === id);
          expect(tagged.length).toBeGreaterThanOrEqual(1);
          expect(new Set(tagged.map((e) => e.kind))).toEqual(new Set(['message.inbound']));
        });

        it('reports status callbacks that arrive out of order, each with its own upstream event id', async () => {
          const { externalId } = await provider.send(sendRequest(options, recipients.deliverable));
          await call(ingress.status({ id: `up-${randomUUID()}`, externalId, status: 'delivered' }));
          await call(ingress.status({ id: `up-${randomUUID()}`, externalId, status: 'sent' }));
          const of = (status: string) =>
            recorder.events.find(
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

    it('reports nothing through the sink once stop has resolved', async () => {
      await provider.send(sendRequest(options, recipients.deliverable));
      await provider.stop();
      const calls = recorder.calls;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(recorder.calls).toBe(calls);
    });
  });
}
