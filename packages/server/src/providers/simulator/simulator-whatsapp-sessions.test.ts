import type {
  ProviderWhatsAppConnectionEvent,
  WhatsAppSessionPort,
} from '@switchboard/provider-kit';
import {
  isProviderError,
  MemoryProviderStateStore,
  type ProviderStateStore,
} from '@switchboard/provider-kit';
import { ManualTimerClock, ProviderEventRecorder, startWithRecorder } from '@switchboard/testing';
import { describe, expect, it } from 'vitest';
import { SimulatorProvider } from './simulator-provider';

const STEP = 500;
const NUMBER = '+14155550160';
const JID = '14155550160@s.whatsapp.net';

async function startSimulator(state: ProviderStateStore = new MemoryProviderStateStore()) {
  const clock = new ManualTimerClock();
  const provider = new SimulatorProvider({
    instanceName: 'wa',
    stepMs: STEP,
    clock,
    qrRotationSteps: 2,
    qrMaxRotations: 3,
  });
  const { recorder } = await startWithRecorder(provider, new ProviderEventRecorder(), state);
  const sessions = provider.whatsappSessions;
  if (!sessions) throw new Error('the simulator serves whatsapp');
  return { clock, provider, recorder, sessions: sessions as WhatsAppSessionPort, state };
}

/** The connection states reported so far, with their QR codes, JIDs or reasons. */
function transitions(recorder: ProviderEventRecorder): string[] {
  return recorder.ofKind('whatsapp.connection').map(label);
}

function label(event: ProviderWhatsAppConnectionEvent): string {
  switch (event.state) {
    case 'qr_pending':
      return 'qr_pending';
    case 'connected':
      return `connected ${event.jid}`;
    case 'disconnected':
      return `disconnected ${event.reason}`;
    default:
      return event.state;
  }
}

function qrCodes(recorder: ProviderEventRecorder): string[] {
  return recorder
    .ofKind('whatsapp.connection')
    .flatMap((event) => (event.state === 'qr_pending' ? [event.qrCode] : []));
}

async function rejection(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isProviderError(error) ? error.code : `not a ProviderError: ${String(error)}`;
  }
  return undefined;
}

describe('simulated WhatsApp sessions', () => {
  it('pairs by QR: connecting → qr_pending → (scan) → connecting → connected', async () => {
    const { clock, provider, recorder, sessions } = await startSimulator();
    expect(await sessions.getSession(NUMBER)).toEqual({
      phoneNumber: NUMBER,
      status: 'not_enabled',
    });

    expect(await sessions.enable(NUMBER)).toEqual({ phoneNumber: NUMBER, status: 'connecting' });
    expect(transitions(recorder)).toEqual(['connecting']);

    await clock.advance(STEP);
    expect(transitions(recorder)).toEqual(['connecting', 'qr_pending']);
    const snapshot = await sessions.getSession(NUMBER);
    expect(snapshot.status).toBe('qr_pending');
    expect(snapshot.qrCode).toBe(qrCodes(recorder)[0]);
    expect(snapshot.qrCode).toMatch(/^2@[A-Za-z0-9+/=]+(,[A-Za-z0-9+/=]+){3}$/);

    await provider.sandbox.scanWhatsAppQr(NUMBER);
    expect(transitions(recorder)).toEqual(['connecting', 'qr_pending', 'connecting']);
    await clock.advance(STEP);
    expect(transitions(recorder)).toEqual([
      'connecting',
      'qr_pending',
      'connecting',
      `connected ${JID}`,
    ]);
    expect(await sessions.getSession(NUMBER)).toEqual({
      phoneNumber: NUMBER,
      status: 'connected',
      jid: JID,
    });
    // Enabling a live session changes nothing.
    await sessions.enable(NUMBER);
    expect(transitions(recorder)).toHaveLength(4);
    await provider.stop();
  });

  it('rotates the QR code every qrRotationSteps, then gives up with qr_timeout', async () => {
    const { clock, provider, recorder, sessions } = await startSimulator();
    await sessions.enable(NUMBER);
    await clock.advance(STEP);
    await clock.advance(STEP * 2);
    expect(qrCodes(recorder)).toHaveLength(2);
    expect(new Set(qrCodes(recorder)).size).toBe(2);
    expect((await sessions.getSession(NUMBER)).qrCode).toBe(qrCodes(recorder)[1]);
    await clock.advance(STEP * 4);
    expect(qrCodes(recorder)).toHaveLength(3);
    expect(transitions(recorder).at(-1)).toBe('disconnected qr_timeout');
    expect(await sessions.getSession(NUMBER)).toEqual({
      phoneNumber: NUMBER,
      status: 'disconnected',
      disconnectReason: 'qr_timeout',
    });
    expect(await rejection(provider.sandbox.scanWhatsAppQr(NUMBER))).toBe('INVALID_STATUS');
    await provider.stop();
  });

  it('pairs by code, accepting it typed with a dash in lower case', async () => {
    const { clock, provider, recorder, sessions } = await startSimulator();
    const { code, snapshot } = await sessions.requestPairingCode(NUMBER);
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(snapshot).toMatchObject({ status: 'connecting', pairingCode: code });
    expect(recorder.ofKind('whatsapp.pairing_code')).toMatchObject([{ phoneNumber: NUMBER, code }]);

    expect(await rejection(provider.sandbox.enterWhatsAppPairingCode(NUMBER, 'WRONG123'))).toBe(
      'VALIDATION_ERROR',
    );
    const typed = `${code.slice(0, 4)}-${code.slice(4)}`.toLowerCase();
    await provider.sandbox.enterWhatsAppPairingCode(NUMBER, typed);
    await clock.advance(STEP);
    expect(transitions(recorder)).toEqual(['connecting', 'connecting', `connected ${JID}`]);
    await provider.stop();
  });

  it('links the other device a pairing code was requested for', async () => {
    const { clock, provider, recorder, sessions } = await startSimulator();
    const { code } = await sessions.requestPairingCode(NUMBER, '+14155550161');
    await provider.sandbox.enterWhatsAppPairingCode(NUMBER, code);
    await clock.advance(STEP);
    expect(transitions(recorder).at(-1)).toBe('connected 14155550161@s.whatsapp.net');
    await provider.stop();
  });

  it('disconnect keeps the credentials: enable reconnects without a QR', async () => {
    const { clock, provider, recorder, sessions } = await startSimulator();
    await pair(clock, provider, sessions);
    const disconnected = await sessions.disconnect(NUMBER);
    expect(disconnected).toEqual({
      phoneNumber: NUMBER,
      status: 'disconnected',
      jid: JID,
      disconnectReason: 'disconnected_by_api',
    });
    const before = qrCodes(recorder).length;
    await sessions.enable(NUMBER);
    await clock.advance(STEP);
    expect(qrCodes(recorder)).toHaveLength(before);
    expect(transitions(recorder).slice(-3)).toEqual([
      'disconnected disconnected_by_api',
      'connecting',
      `connected ${JID}`,
    ]);
    expect(await rejection(sessions.requestPairingCode(NUMBER))).toBe('INVALID_STATUS');
    await provider.stop();
  });

  it('remove wipes the credentials: the next pairing needs a fresh QR', async () => {
    const { clock, provider, recorder, sessions, state } = await startSimulator();
    await pair(clock, provider, sessions);
    await sessions.remove(NUMBER);
    expect(transitions(recorder).at(-1)).toBe('not_enabled');
    expect(await state.keys('')).toEqual([]);
    expect(await sessions.getSession(NUMBER)).toEqual({
      phoneNumber: NUMBER,
      status: 'not_enabled',
    });
    await sessions.enable(NUMBER);
    await clock.advance(STEP);
    expect((await sessions.getSession(NUMBER)).status).toBe('qr_pending');
    await provider.stop();
  });

  it('removing a number that never had a session reports nothing', async () => {
    const { provider, recorder, sessions } = await startSimulator();
    await sessions.remove(NUMBER);
    expect(recorder.events).toEqual([]);
    await provider.stop();
  });

  it('keeps the credentials across a restart', async () => {
    const state = new MemoryProviderStateStore();
    const first = await startSimulator(state);
    await pair(first.clock, first.provider, first.sessions);
    await first.provider.stop();

    const second = await startSimulator(state);
    expect(await second.sessions.getSession(NUMBER)).toEqual({
      phoneNumber: NUMBER,
      status: 'disconnected',
      jid: JID,
    });
    await second.sessions.enable(NUMBER);
    await second.clock.advance(STEP);
    expect(transitions(second.recorder)).toEqual(['connecting', `connected ${JID}`]);
    await second.provider.stop();
  });

  it('drops a live connection from the sandbox; logged_out unlinks the device', async () => {
    const { clock, provider, recorder, sessions, state } = await startSimulator();
    await pair(clock, provider, sessions);
    await provider.sandbox.dropWhatsAppConnection(NUMBER);
    expect(transitions(recorder).at(-1)).toBe('disconnected connection_lost');
    expect(await state.keys('')).toHaveLength(1);
    await sessions.enable(NUMBER);
    await clock.advance(STEP);
    await provider.sandbox.dropWhatsAppConnection(NUMBER, 'logged_out');
    expect(transitions(recorder).at(-1)).toBe('disconnected logged_out');
    expect(await state.keys('')).toEqual([]);
    expect(await rejection(provider.sandbox.dropWhatsAppConnection(NUMBER))).toBe('INVALID_STATUS');
    await provider.stop();
  });

  it('answers who is on WhatsApp by the recipient table', async () => {
    const { provider, sessions } = await startSimulator();
    expect(await sessions.isOnWhatsApp(NUMBER, '+14155550165')).toEqual({
      address: '+14155550165',
      exists: true,
      jid: '14155550165@s.whatsapp.net',
    });
    expect(await sessions.isOnWhatsApp(NUMBER, '+447700900123')).toMatchObject({ exists: true });
    expect(await sessions.isOnWhatsApp(NUMBER, '+14155550105')).toEqual({
      address: '+14155550105',
      exists: false,
    });
    await provider.stop();
  });
});

async function pair(
  clock: ManualTimerClock,
  provider: SimulatorProvider,
  sessions: WhatsAppSessionPort,
): Promise<void> {
  await sessions.enable(NUMBER);
  await clock.advance(STEP);
  await provider.sandbox.scanWhatsAppQr(NUMBER);
  await clock.advance(STEP);
  expect((await sessions.getSession(NUMBER)).status).toBe('connected');
}
