import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Channel } from '@switchboard/contract';
import type { ProviderDestination, ProviderSendRequest } from '@switchboard/provider-kit';
import { isProviderError, type ProviderErrorCode } from '@switchboard/provider-kit';
import { ManualTimerClock, startWithRecorder } from '@switchboard/testing';
import { describe, expect, it } from 'vitest';
import { renderRecipientTable } from './recipient-behaviour';
import { SimulatorProvider } from './simulator-provider';

const STEP_MS = 500;
const FROM = '+14155550999';

type Lifecycle = readonly ('sent' | 'delivered' | 'read')[];
/** What a send on a channel does: a lifecycle, or the error code it is refused with. */
type Expected = Lifecycle | ProviderErrorCode;

interface Row {
  name: string;
  address: string;
  availability: { imessage: boolean; sms: boolean; whatsapp: boolean; facetime: boolean };
  focusMode?: string;
  sends: Record<Channel, Expected>;
  edit: 'ok' | 'EDIT_FAILED' | 'PROVIDER_TIMEOUT';
}

const READ: Lifecycle = ['sent', 'delivered', 'read'];
const DELIVERED: Lifecycle = ['sent', 'delivered'];

/** The table of issue 4, written out independently of the code it checks. */
const ROWS: readonly Row[] = [
  {
    name: '00–09',
    address: '+14155550107',
    availability: { imessage: true, sms: true, whatsapp: false, facetime: true },
    sends: { imessage: READ, sms: DELIVERED, whatsapp: 'NO_CHANNEL_AVAILABLE' },
    edit: 'ok',
  },
  {
    name: '10–19',
    address: '+12125550113',
    availability: { imessage: false, sms: true, whatsapp: false, facetime: false },
    sends: { imessage: 'NO_CHANNEL_AVAILABLE', sms: DELIVERED, whatsapp: 'NO_CHANNEL_AVAILABLE' },
    edit: 'ok',
  },
  {
    name: '20–29',
    address: '+14155550129',
    availability: { imessage: true, sms: true, whatsapp: false, facetime: true },
    sends: { imessage: 'IMESSAGE_SEND_FAILED', sms: DELIVERED, whatsapp: 'NO_CHANNEL_AVAILABLE' },
    edit: 'ok',
  },
  {
    name: '30–39',
    address: '+14155550136',
    availability: { imessage: true, sms: true, whatsapp: false, facetime: true },
    sends: {
      imessage: 'IMESSAGE_SEND_FAILED',
      sms: 'IMESSAGE_SEND_FAILED',
      whatsapp: 'NO_CHANNEL_AVAILABLE',
    },
    edit: 'ok',
  },
  {
    name: '40–49',
    address: '+14155550144',
    availability: { imessage: false, sms: false, whatsapp: false, facetime: false },
    sends: {
      imessage: 'NO_CHANNEL_AVAILABLE',
      sms: 'NO_CHANNEL_AVAILABLE',
      whatsapp: 'NO_CHANNEL_AVAILABLE',
    },
    edit: 'ok',
  },
  {
    name: '50–59',
    address: '+14155550150',
    availability: { imessage: true, sms: true, whatsapp: false, facetime: true },
    focusMode: 'Do Not Disturb',
    sends: { imessage: DELIVERED, sms: DELIVERED, whatsapp: 'NO_CHANNEL_AVAILABLE' },
    edit: 'ok',
  },
  {
    name: '60–69',
    address: '+14155550169',
    availability: { imessage: false, sms: true, whatsapp: true, facetime: false },
    sends: { imessage: 'NO_CHANNEL_AVAILABLE', sms: DELIVERED, whatsapp: READ },
    edit: 'ok',
  },
  {
    name: '70–74',
    address: '+14155550172',
    availability: { imessage: true, sms: true, whatsapp: false, facetime: true },
    sends: { imessage: DELIVERED, sms: DELIVERED, whatsapp: 'NO_CHANNEL_AVAILABLE' },
    edit: 'EDIT_FAILED',
  },
  {
    name: '75–79',
    address: '+14155550179',
    availability: { imessage: true, sms: true, whatsapp: false, facetime: true },
    sends: { imessage: DELIVERED, sms: DELIVERED, whatsapp: 'NO_CHANNEL_AVAILABLE' },
    edit: 'PROVIDER_TIMEOUT',
  },
  {
    name: 'any other valid number (DD 80–99)',
    address: '+14155550188',
    availability: { imessage: true, sms: true, whatsapp: true, facetime: true },
    sends: { imessage: DELIVERED, sms: DELIVERED, whatsapp: DELIVERED },
    edit: 'ok',
  },
  {
    name: 'any other valid number (outside the range)',
    address: '+447700900123',
    availability: { imessage: true, sms: true, whatsapp: true, facetime: true },
    sends: { imessage: DELIVERED, sms: DELIVERED, whatsapp: DELIVERED },
    edit: 'ok',
  },
  {
    name: 'e-mail style address',
    address: 'jane.appleseed@icloud.com',
    availability: { imessage: true, sms: false, whatsapp: false, facetime: true },
    sends: { imessage: DELIVERED, sms: 'NO_CHANNEL_AVAILABLE', whatsapp: 'NO_CHANNEL_AVAILABLE' },
    edit: 'ok',
  },
];

async function startSimulator() {
  const clock = new ManualTimerClock();
  const provider = new SimulatorProvider({ instanceName: 'table', stepMs: STEP_MS, clock });
  const { recorder } = await startWithRecorder(provider);
  return { clock, provider, recorder };
}

function sendRequest(
  channel: Channel,
  to: ProviderDestination,
  messageId = `msg_${randomUUID()}`,
  attempt = 0,
): ProviderSendRequest {
  return {
    channel,
    from: FROM,
    to,
    messageId,
    attempt,
    attemptId: `${messageId}:${attempt}:${channel}`,
    text: 'Hello from the table',
  };
}

/** Settles `promise` into a value or an error without letting it reject unobserved. */
function observe<T>(promise: Promise<T>): { settled: () => { value?: T; error?: unknown } | null } {
  let outcome: { value?: T; error?: unknown } | null = null;
  promise.then(
    (value) => {
      outcome = { value };
    },
    (error: unknown) => {
      outcome = { error };
    },
  );
  return { settled: () => outcome };
}

function errorCode(error: unknown): string | undefined {
  return isProviderError(error) ? error.code : undefined;
}

describe('the simulator recipient table', () => {
  for (const row of ROWS) {
    describe(`${row.name} (${row.address})`, () => {
      it('answers availability, FaceTime and Focus', async () => {
        const { provider } = await startSimulator();
        const availability = await provider.checkAvailability({ address: row.address });
        const { facetime, ...channels } = row.availability;
        expect(availability.channels).toEqual(channels);
        expect(availability.facetime).toBe(facetime);
        expect(availability.focused).toBe(row.focusMode !== undefined);
        expect(availability.focusMode).toBe(row.focusMode);
        await provider.stop();
      });

      for (const channel of ['imessage', 'sms', 'whatsapp'] as const) {
        const expected = row.sends[channel];
        if (typeof expected === 'string') {
          it(`${channel}: the send is refused with ${expected}`, async () => {
            const { clock, provider, recorder } = await startSimulator();
            const send = observe(provider.send(sendRequest(channel, address(row.address))));
            if (expected === 'NO_CHANNEL_AVAILABLE') {
              // Unreachability is known up front: refused at once, no step taken.
              await clock.advance(0);
              expect(errorCode(send.settled()?.error)).toBe(expected);
              const error = send.settled()?.error;
              expect(isProviderError(error) && error.fallback).toBe(true);
            } else {
              // A failing attempt takes one step, like an upstream trying and giving up.
              await clock.advance(STEP_MS - 1);
              expect(send.settled()).toBeNull();
              await clock.advance(1);
              expect(errorCode(send.settled()?.error)).toBe(expected);
              const error = send.settled()?.error;
              expect(isProviderError(error) && error.fallback).toBe(true);
              expect(isProviderError(error) && error.message).toContain(row.address);
            }
            expect(recorder.events).toEqual([]);
            await provider.stop();
          });
        } else {
          it(`${channel}: ${expected.join(' → ')}, one step apart`, async () => {
            const { clock, provider, recorder } = await startSimulator();
            const request = sendRequest(channel, address(row.address));
            const { externalId } = await provider.send(request);
            expect(recorder.events).toEqual([]);
            for (let step = 1; step <= expected.length; step++) {
              await clock.advance(STEP_MS - 1);
              expect(recorder.statusesOf(externalId)).toEqual(expected.slice(0, step - 1));
              await clock.advance(1);
              expect(recorder.statusesOf(externalId)).toEqual(expected.slice(0, step));
            }
            await clock.advance(STEP_MS * 10);
            expect(recorder.statusesOf(externalId)).toEqual(expected);
            for (const event of recorder.ofKind('message.status')) {
              expect(event).toMatchObject({ channel, attemptId: request.attemptId });
            }
            await provider.stop();
          });
        }
      }

      it(`edits of its iMessages: ${row.edit}`, async () => {
        const { clock, provider } = await startSimulator();
        const edit = observe(
          provider.edit({
            channel: 'imessage',
            from: FROM,
            message: { externalId: 'ABC', conversation: address(row.address), fromMe: true },
            text: 'Edited',
          }),
        );
        await clock.advance(0);
        if (row.edit === 'ok') {
          expect(edit.settled()).toEqual({ value: undefined });
        } else if (row.edit === 'EDIT_FAILED') {
          expect(errorCode(edit.settled()?.error)).toBe('EDIT_FAILED');
        } else {
          expect(edit.settled()).toBeNull();
          await clock.advance(STEP_MS);
          expect(errorCode(edit.settled()?.error)).toBe('PROVIDER_TIMEOUT');
        }
        await provider.stop();
      });
    });
  }

  describe('DD 31', () => {
    const dd31 = address('+14155550131');

    it('fails every channel on the first attempt, and delivers the retry', async () => {
      const { clock, provider, recorder } = await startSimulator();
      const messageId = `msg_${randomUUID()}`;
      for (const channel of ['imessage', 'sms'] as const) {
        const send = observe(provider.send(sendRequest(channel, dd31, messageId, 0)));
        await clock.advance(STEP_MS);
        expect(errorCode(send.settled()?.error)).toBe('IMESSAGE_SEND_FAILED');
      }
      const { externalId } = await provider.send(sendRequest('imessage', dd31, messageId, 1));
      await clock.advance(STEP_MS * 3);
      expect(recorder.statusesOf(externalId)).toEqual(['sent', 'delivered']);
      await provider.stop();
    });

    it('keeps failing a re-driven first attempt, and fails the first attempt of every message', async () => {
      const { clock, provider } = await startSimulator();
      const messageId = `msg_${randomUUID()}`;
      for (const request of [
        sendRequest('imessage', dd31, messageId, 0),
        sendRequest('imessage', dd31, messageId, 0),
        sendRequest('imessage', dd31),
      ]) {
        const send = observe(provider.send(request));
        await clock.advance(STEP_MS);
        expect(errorCode(send.settled()?.error)).toBe('IMESSAGE_SEND_FAILED');
      }
      await provider.stop();
    });

    it('is reachable like the rest of 30–39', async () => {
      const { provider } = await startSimulator();
      const availability = await provider.checkAvailability({ address: '+14155550131' });
      expect(availability.channels).toEqual({ imessage: true, sms: true, whatsapp: false });
      await provider.stop();
    });
  });

  describe('chats and other addresses', () => {
    it('delivers to iMessage and WhatsApp groups, never to an sms "group"', async () => {
      const { clock, provider, recorder } = await startSimulator();
      const imessage = await provider.send(
        sendRequest('imessage', { type: 'chat', chatId: 'iMessage;+;chat123456789012345678' }),
      );
      const whatsapp = await provider.send(
        sendRequest('whatsapp', { type: 'chat', chatId: '120363123456789012@g.us' }),
      );
      await clock.advance(STEP_MS * 3);
      expect(recorder.statusesOf(imessage.externalId)).toEqual(['sent', 'delivered']);
      expect(recorder.statusesOf(whatsapp.externalId)).toEqual(['sent', 'delivered']);
      const sms = observe(
        provider.send(sendRequest('sms', { type: 'chat', chatId: 'iMessage;+;chat1' })),
      );
      await clock.advance(0);
      expect(errorCode(sms.settled()?.error)).toBe('NO_CHANNEL_AVAILABLE');
      await provider.stop();
    });

    it('treats a direct chat id like the address inside it', async () => {
      const { clock, provider, recorder } = await startSimulator();
      const { externalId, chatId } = await provider.send(
        sendRequest('imessage', { type: 'chat', chatId: 'iMessage;-;+14155550103' }),
      );
      expect(chatId).toBe('iMessage;-;+14155550103');
      await clock.advance(STEP_MS * 3);
      expect(recorder.statusesOf(externalId)).toEqual(['sent', 'delivered', 'read']);
      const whatsapp = observe(
        provider.send(
          sendRequest('whatsapp', { type: 'chat', chatId: '14155550140@s.whatsapp.net' }),
        ),
      );
      await clock.advance(0);
      expect(errorCode(whatsapp.settled()?.error)).toBe('NO_CHANNEL_AVAILABLE');
      await provider.stop();
    });

    it('reaches nothing for an address that is neither a number nor an e-mail', async () => {
      const { provider } = await startSimulator();
      const availability = await provider.checkAvailability({ address: 'not-an-address' });
      expect(availability.channels).toEqual({ imessage: false, sms: false, whatsapp: false });
      expect(availability.facetime).toBe(false);
      await provider.stop();
    });
  });

  it('is documented in docs/simulator.md exactly as the code has it', async () => {
    const docs = await readFile(
      new URL('../../../../../docs/simulator.md', import.meta.url),
      'utf8',
    );
    expect(docs).toContain(renderRecipientTable());
  });
});

function address(value: string): ProviderDestination {
  return { type: 'address', address: value };
}
