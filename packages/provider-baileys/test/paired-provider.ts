import type { ProviderStartContext, TimerClock } from '@switchboard/provider-kit';
import { systemTimerClock } from '@switchboard/provider-kit';
import { BaileysProvider } from '../src/baileys-provider';
import { type BaileysAdapterOptions, createBaileysProvider } from '../src/index';
import type { FakeWhatsAppNetwork } from './fake-baileys-socket';

/** Resolves once `predicate` holds, checking every few milliseconds (real time). */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A Baileys instance on a fake network, with its sockets and downloads from the fake. */
export function fakeBaileys(
  network: FakeWhatsAppNetwork,
  options: BaileysAdapterOptions = {},
): BaileysProvider {
  return createBaileysProvider(
    { name: 'wa', config: {} },
    {
      socketFactory: network.socketFactory,
      download: network.download,
      clock: network.clock,
      ...options,
    },
  );
}

/**
 * A Baileys instance whose session of `phoneNumber` pairs (or reconnects) as it starts: what the
 * gateway does with `enable` and a phone scanning the QR code, for suites that only send.
 */
export class PairedBaileysProvider extends BaileysProvider {
  readonly #network: FakeWhatsAppNetwork;
  readonly #phoneNumber: string;

  constructor(network: FakeWhatsAppNetwork, phoneNumber: string) {
    const plain = fakeBaileys(network);
    super({ instanceName: plain.instanceName, settings: plainSettings(network) });
    this.#network = network;
    this.#phoneNumber = phoneNumber;
  }

  override async start(context: ProviderStartContext): Promise<void> {
    await super.start(context);
    await this.whatsappSessions.enable(this.#phoneNumber);
    await until(async () => {
      const status = (await this.whatsappSessions.getSession(this.#phoneNumber)).status;
      return status === 'qr_pending' || status === 'connected';
    });
    if ((await this.whatsappSessions.getSession(this.#phoneNumber)).status === 'qr_pending') {
      await this.#network.scanQr(this.#phoneNumber);
    }
    await until(
      async () =>
        (await this.whatsappSessions.getSession(this.#phoneNumber)).status === 'connected',
    );
  }
}

function plainSettings(network: FakeWhatsAppNetwork, clock: TimerClock = network.clock) {
  return {
    socketFactory: network.socketFactory,
    download: network.download,
    version: [2, 3000, 1] as [number, number, number],
    browser: ['Switchboard', 'Chrome', '1.0'] as [string, string, string],
    markOnlineOnConnect: false,
    maxQrCodes: 5,
    reconnectDelaysMs: [10],
    clock: clock ?? systemTimerClock,
    leaseTtlMs: 15_000,
    leaseRetryMs: 50,
  };
}
