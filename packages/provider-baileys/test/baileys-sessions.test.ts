import type { ProviderWhatsAppConnectionEvent } from '@switchboard/provider-kit';
import {
  isProviderError,
  MemoryProviderLeases,
  MemoryProviderStateStore,
  type ProviderLeases,
} from '@switchboard/provider-kit';
import { ManualTimerClock, ProviderEventRecorder, startWithRecorder } from '@switchboard/testing';
import { DisconnectReason } from 'baileys';
import { describe, expect, it } from 'vitest';
import type { BaileysProvider } from '../src/baileys-provider';
import { authPrefix } from '../src/stored-auth-state';
import { FakeWhatsAppNetwork } from './fake-baileys-socket';
import { fakeBaileys, until } from './paired-provider';

const NUMBER = '+14155550160';
const JID = '14155550160@s.whatsapp.net';

function label(event: ProviderWhatsAppConnectionEvent): string {
  switch (event.state) {
    case 'connected':
      return `connected ${event.jid}`;
    case 'disconnected':
      return `disconnected ${event.reason}`;
    default:
      return event.state;
  }
}

/** A state store that answers its writes late, as one on another machine does. */
class SlowWritesStateStore extends MemoryProviderStateStore {
  override async set(key: string, value: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 30));
    await super.set(key, value);
  }
}

/** A state store that holds every read of stored credentials until {@link release} is called. */
class HeldCredentialsStateStore extends MemoryProviderStateStore {
  /** Reads of credentials waiting for {@link release}. */
  held = 0;
  #open: () => void = () => undefined;
  readonly #gate = new Promise<void>((resolve) => {
    this.#open = resolve;
  });

  /** Lets the held reads (and all later ones) through. */
  release(): void {
    this.#open();
  }

  override async get(key: string): Promise<string | undefined> {
    if (key.endsWith('creds')) {
      this.held += 1;
      await this.#gate;
    }
    return super.get(key);
  }
}

async function setup(
  options: {
    network?: FakeWhatsAppNetwork;
    state?: MemoryProviderStateStore;
    leases?: ProviderLeases;
  } = {},
) {
  const clock = new ManualTimerClock();
  const network =
    options.network ??
    new FakeWhatsAppNetwork(clock, { qrRefs: 6, firstQrMs: 60_000, nextQrMs: 20_000 }).addUser({
      phoneNumber: NUMBER,
      lid: '90000000000160@lid',
    });
  const state = options.state ?? new MemoryProviderStateStore();
  const provider = fakeBaileys(network, {
    maxQrCodes: 4,
    reconnectDelaysMs: [1_000, 5_000],
    leaseTtlMs: 15_000,
    leaseRetryMs: 1_000,
  });
  const { recorder } = await startWithRecorder(
    provider,
    new ProviderEventRecorder(),
    state,
    undefined,
    options.leases,
  );
  const transitions = () => recorder.ofKind('whatsapp.connection').map(label);
  const status = async () => (await provider.whatsappSessions.getSession(NUMBER)).status;
  return {
    clock: network.clock as ManualTimerClock,
    network,
    state,
    provider,
    recorder,
    transitions,
    status,
  };
}

async function pair(provider: BaileysProvider, network: FakeWhatsAppNetwork) {
  await provider.whatsappSessions.enable(NUMBER);
  await until(
    async () => (await provider.whatsappSessions.getSession(NUMBER)).status === 'qr_pending',
  );
  await network.scanQr(NUMBER);
  await until(
    async () => (await provider.whatsappSessions.getSession(NUMBER)).status === 'connected',
  );
}

describe('Baileys WhatsApp sessions', () => {
  it('pairs by QR: connecting → qr_pending → scan → (515 restart, silent) → connecting → connected', async () => {
    const { provider, network, transitions, state } = await setup();
    expect(await provider.whatsappSessions.getSession(NUMBER)).toEqual({
      phoneNumber: NUMBER,
      status: 'not_enabled',
    });
    await pair(provider, network);
    expect(transitions()).toEqual(['connecting', 'qr_pending', 'connecting', `connected ${JID}`]);
    // The credentials were stored (encrypted by the gateway's store) before connected was told.
    expect(await state.get(`${authPrefix(NUMBER)}creds`)).toContain('"me"');
    expect(network.sockets).toHaveLength(2);
    await provider.stop();
  });

  it('reconnects after pairing with the new credentials even when storing them is slow', async () => {
    // A store on another machine (PostgreSQL) answers later than the 515 restart comes.
    const { provider, network, transitions } = await setup({
      state: new SlowWritesStateStore(),
    });
    await pair(provider, network);
    expect(transitions()).toEqual(['connecting', 'qr_pending', 'connecting', `connected ${JID}`]);
    expect(network.sockets).toHaveLength(2);
    expect(network.sockets[1]?.showingQr).toBe(false);
    await provider.stop();
  });

  it('after credentials that could not be stored, asks for a QR code again instead of hanging', async () => {
    class FailingOnceStateStore extends MemoryProviderStateStore {
      failed = false;
      override async set(key: string, value: string): Promise<void> {
        if (!this.failed && key.endsWith('creds')) {
          this.failed = true;
          throw new Error('database unavailable');
        }
        await super.set(key, value);
      }
    }
    const state = new FailingOnceStateStore();
    const { provider, network, transitions, status } = await setup({ state });
    await provider.whatsappSessions.enable(NUMBER);
    await until(async () => (await status()) === 'qr_pending');
    await network.scanQr(NUMBER);
    // The restarted socket found no stored credentials: a new QR code, not a session stuck.
    await until(() => transitions().filter((t) => t === 'qr_pending').length === 2);
    expect(state.failed).toBe(true);
    await network.scanQr(NUMBER);
    await until(async () => (await status()) === 'connected');
    expect(await state.get(`${authPrefix(NUMBER)}creds`)).toContain('"me"');
    await provider.stop();
  });

  it('opens no socket when disconnected or stopped while the credentials were being read', async () => {
    const disconnectedState = new HeldCredentialsStateStore();
    const disconnected = await setup({ state: disconnectedState });
    const enabling = disconnected.provider.whatsappSessions.enable(NUMBER);
    await until(() => disconnectedState.held > 0);
    // Its synchronous part abandons the opening socket before the read can finish.
    const disconnecting = disconnected.provider.whatsappSessions.disconnect(NUMBER);
    disconnectedState.release();
    await Promise.all([enabling, disconnecting]);
    expect(disconnected.network.sockets).toHaveLength(0);
    expect(await disconnected.status()).toBe('disconnected');

    const stoppedState = new HeldCredentialsStateStore();
    const stopped = await setup({ state: stoppedState });
    const starting = stopped.provider.whatsappSessions.enable(NUMBER);
    await until(() => stoppedState.held > 0);
    await stopped.provider.stop();
    stoppedState.release();
    await starting;
    expect(stopped.network.sockets).toHaveLength(0);
  });

  it('rotates the QR code (60 s, then 20 s) and gives up after the limit with qr_timeout', async () => {
    const { provider, clock, recorder, transitions } = await setup();
    await provider.whatsappSessions.enable(NUMBER);
    await until(() => transitions().includes('qr_pending'));
    await clock.advance(60_000);
    await clock.advance(20_000);
    await clock.advance(20_000);
    await until(() => transitions().filter((t) => t === 'qr_pending').length === 4);
    const codes = recorder
      .ofKind('whatsapp.connection')
      .flatMap((e) => (e.state === 'qr_pending' ? [e.qrCode] : []));
    expect(new Set(codes).size).toBe(4);
    await clock.advance(20_000);
    await until(() => transitions().at(-1) === 'disconnected qr_timeout');
    expect((await provider.whatsappSessions.getSession(NUMBER)).disconnectReason).toBe(
      'qr_timeout',
    );
    await provider.stop();
  });

  it('pairs with a pairing code asked for the digits of the number', async () => {
    const { provider, network, recorder, status } = await setup();
    const { code } = await provider.whatsappSessions.requestPairingCode(NUMBER);
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(network.sockets[0]?.pendingPhone).toBe('14155550160');
    expect(recorder.ofKind('whatsapp.pairing_code').map((e) => e.code)).toEqual([code]);
    await network.enterPairingCode(code);
    await until(async () => (await status()) === 'connected');
    await provider.stop();
  });

  it('reconnects from stored credentials after a restart without a new QR code', async () => {
    const first = await setup();
    await pair(first.provider, first.network);
    await first.provider.stop();
    const second = await setup({ network: first.network, state: first.state });
    await second.provider.whatsappSessions.enable(NUMBER);
    await until(async () => (await second.status()) === 'connected');
    expect(second.transitions()).toEqual(['connecting', `connected ${JID}`]);
    await second.provider.stop();
  });

  it('logged out from the phone (401): credentials wiped, and the next enable needs a QR', async () => {
    const { provider, network, state, transitions, status } = await setup();
    await pair(provider, network);
    await network.unlinkFromPhone(NUMBER);
    await until(() => transitions().at(-1) === 'disconnected logged_out');
    expect(await state.keys(authPrefix(NUMBER))).toEqual([]);
    await provider.whatsappSessions.enable(NUMBER);
    await until(async () => (await status()) === 'qr_pending');
    await provider.stop();
  });

  it('a second socket on the same credentials closes the first with 440, which never reconnects', async () => {
    const one = await setup();
    await pair(one.provider, one.network);
    const two = await setup({ network: one.network, state: one.state });
    await two.provider.whatsappSessions.enable(NUMBER);
    await until(async () => (await two.status()) === 'connected');
    await until(() => one.transitions().at(-1) === 'disconnected connection_replaced');
    await one.clock.advance(120_000);
    expect(one.transitions().at(-1)).toBe('disconnected connection_replaced');
    expect(one.network.openSockets()).toHaveLength(1);
    await one.provider.stop();
    await two.provider.stop();
  });

  it.each([
    [DisconnectReason.connectionLost, 'connection_lost'],
    [DisconnectReason.connectionClosed, 'connection_lost'],
    [DisconnectReason.unavailableService, 'unavailable'],
  ])('reconnects with backoff after %i (%s)', async (code, reason) => {
    const { provider, network, clock, transitions, status } = await setup();
    await pair(provider, network);
    await network.dropConnection(NUMBER, code);
    await until(() => transitions().at(-1) === `disconnected ${reason}`);
    expect(await status()).toBe('disconnected');
    await clock.advance(999);
    expect(await status()).toBe('disconnected');
    await clock.advance(1);
    await until(async () => (await status()) === 'connected');
    // Connected again, the backoff starts over.
    await network.dropConnection(NUMBER, code);
    await until(async () => (await status()) === 'disconnected');
    await clock.advance(1_000);
    await until(async () => (await status()) === 'connected');
    await provider.stop();
  });

  it.each([
    [405, 'unavailable'],
    [DisconnectReason.badSession, 'bad_session'],
    [DisconnectReason.forbidden, 'forbidden'],
    [DisconnectReason.multideviceMismatch, 'multidevice_mismatch'],
  ])('stays down after %i (%s) and keeps the credentials', async (code, reason) => {
    const { provider, network, clock, transitions, state } = await setup();
    await pair(provider, network);
    await network.dropConnection(NUMBER, code);
    await until(() => transitions().at(-1) === `disconnected ${reason}`);
    await clock.advance(600_000);
    expect(transitions().at(-1)).toBe(`disconnected ${reason}`);
    expect((await state.keys(authPrefix(NUMBER))).length).toBeGreaterThan(0);
    expect((await provider.health()).warnings.map((w) => w.code)).toEqual([
      'whatsapp_session_disconnected',
    ]);
    await provider.stop();
  });

  it('disconnect keeps the credentials; remove logs out and wipes them', async () => {
    const { provider, network, state, transitions, status } = await setup();
    await pair(provider, network);
    expect((await provider.whatsappSessions.disconnect(NUMBER)).status).toBe('disconnected');
    expect(transitions().at(-1)).toBe('disconnected disconnected_by_api');
    expect((await state.keys(authPrefix(NUMBER))).length).toBeGreaterThan(0);
    await provider.whatsappSessions.enable(NUMBER);
    await until(async () => (await status()) === 'connected');
    await provider.whatsappSessions.remove(NUMBER);
    expect(transitions().at(-1)).toBe('not_enabled');
    expect(await state.keys(authPrefix(NUMBER))).toEqual([]);
    expect(await status()).toBe('not_enabled');
    await provider.stop();
  });

  it('refuses a pairing code for a paired number and sends on a session that is not connected', async () => {
    const { provider, network } = await setup();
    await pair(provider, network);
    const error = await provider.whatsappSessions
      .requestPairingCode(NUMBER)
      .catch((e: unknown) => e);
    expect(isProviderError(error) && error.code).toBe('INVALID_STATUS');
    await provider.whatsappSessions.disconnect(NUMBER);
    const send = await provider
      .send({
        channel: 'whatsapp',
        from: NUMBER,
        to: { type: 'address', address: '+14155550123' },
        messageId: 'msg_1',
        attempt: 0,
        attemptId: 'a',
        text: 'hi',
      })
      .catch((e: unknown) => e);
    expect(isProviderError(send) && send.code).toBe('INVALID_STATUS');
    expect(
      await provider.whatsappSessions
        .isOnWhatsApp(NUMBER, '+1')
        .catch((e: unknown) => isProviderError(e) && e.code),
    ).toBe('INVALID_STATUS');
    await provider.stop();
  });

  describe('one socket per number across processes (the lease)', () => {
    it('a second process on the same database waits silently, and takes over when the first stops', async () => {
      const clock = new ManualTimerClock();
      const network = new FakeWhatsAppNetwork(clock).addUser({ phoneNumber: NUMBER, lid: '9@lid' });
      const shared = new MemoryProviderLeases(() => clock.now());
      const one = await setup({ network, leases: shared.holder('process-1') });
      await pair(one.provider, network);
      const two = await setup({ network, state: one.state, leases: shared.holder('process-2') });
      await two.provider.whatsappSessions.enable(NUMBER);
      await clock.advance(60_000);
      expect(network.openSockets()).toHaveLength(1);
      expect(two.transitions()).toEqual([]);
      expect(one.transitions().at(-1)).toBe(`connected ${JID}`);
      // The first process shuts down: its lease is released, the second connects without a QR.
      await one.provider.stop();
      await clock.advance(1_000);
      await until(async () => (await two.status()) === 'connected');
      expect(two.transitions()).toEqual(['connecting', `connected ${JID}`]);
      expect(network.openSockets()).toHaveLength(1);
      await two.provider.stop();
    });

    it('takes over within the lease time when the holder died without giving it up', async () => {
      const clock = new ManualTimerClock();
      const network = new FakeWhatsAppNetwork(clock).addUser({ phoneNumber: NUMBER, lid: '9@lid' });
      const shared = new MemoryProviderLeases(() => clock.now());
      // A process that took the lease and died: it never renews nor releases it.
      expect(await shared.holder('dead').acquire(`whatsapp:${NUMBER}`, 15_000)).toBe(true);
      const alive = await setup({ network, leases: shared.holder('alive') });
      await alive.provider.whatsappSessions.enable(NUMBER);
      await clock.advance(14_000);
      expect(network.sockets).toHaveLength(0);
      await clock.advance(1_000);
      await until(async () => (await alive.status()) === 'qr_pending');
      expect(network.sockets).toHaveLength(1);
      await alive.provider.stop();
    });

    it('hands the socket over when another process took the lease from it', async () => {
      const clock = new ManualTimerClock();
      const network = new FakeWhatsAppNetwork(clock).addUser({ phoneNumber: NUMBER, lid: '9@lid' });
      let now = clock.now();
      const shared = new MemoryProviderLeases(() => now);
      const one = await setup({ network, leases: shared.holder('stalled') });
      await pair(one.provider, network);
      // This process stalls past its lease (its clock stands still while another one's runs on).
      now += 20_000;
      expect(await shared.holder('other').acquire(`whatsapp:${NUMBER}`, 15_000)).toBe(true);
      await clock.advance(5_000);
      await until(() => network.openSockets().length === 0);
      await one.provider.stop();
    });
  });
});
