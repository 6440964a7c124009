import type { WhatsAppSessionState } from '@switchboard/contract';
import { FakeWhatsAppNetwork } from '@switchboard/provider-baileys/fake-socket';
import { systemTimerClock } from '@switchboard/provider-kit';
import { ManualClock } from '../../src/clock';
import { createDefaultProviderRegistry } from '../../src/wiring/default-provider-registry';
import { buildTestApp, type TestApp, type TestAppOptions } from './test-app';
import { waitFor } from './wait-for';

/** A WhatsApp user of the fake network: a phone number and its LID. */
export interface FakeWhatsAppUser {
  /** E.164. */
  phoneNumber: string;
  /** Its `…@lid`. */
  lid: string;
}

/**
 * WhatsApp itself with `users` on it (receipts after 5 ms), shared by every server built on it, as
 * the real one outlives a restart.
 */
export function fakeWhatsApp(
  users: readonly FakeWhatsAppUser[],
  options: { answerDelayMs?: number } = {},
): FakeWhatsAppNetwork {
  const network = new FakeWhatsAppNetwork(systemTimerClock, { receiptDelayMs: 5, ...options });
  for (const user of users) network.addUser(user);
  return network;
}

/**
 * A test app with the built-in adapters and Baileys on `network`'s fake socket (reconnecting and
 * retrying its lease after 20 ms), logging warnings only and not rate-limiting the polls of a test.
 * `options.env` is added to (and may override) those settings.
 */
export function fakeWhatsAppGateway(
  network: FakeWhatsAppNetwork,
  options: Omit<TestAppOptions, 'overrides'> = {},
): Promise<TestApp> {
  return buildTestApp({
    ...options,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000', ...options.env },
    overrides: {
      providerRegistry: createDefaultProviderRegistry({
        simulatorStepMs: 0,
        clock: new ManualClock(Date.now()),
        baileys: {
          socketFactory: network.socketFactory,
          download: network.download,
          reconnectDelaysMs: [20],
          leaseRetryMs: 20,
        },
      }),
    },
  });
}

/** What calls the WhatsApp routes as a customer (the chat tests' `TestCustomer` does). */
export interface WhatsAppCaller {
  /** A request expected to succeed; answers its `data`. */
  ok<T>(method: 'GET' | 'POST', url: string): Promise<T>;
}

/** The customer routes of one WhatsApp number (`/v1/whatsapp/numbers/{digits}`). */
export function whatsAppPath(number: string): string {
  return `/v1/whatsapp/numbers/${number.slice(1)}`;
}

/** Waits until the session of `number` is in `status`, as the API answers it. */
export function sessionIn(
  customer: WhatsAppCaller,
  number: string,
  status: WhatsAppSessionState['status'],
): Promise<WhatsAppSessionState> {
  return waitFor(
    async () => {
      const state = await customer.ok<WhatsAppSessionState>(
        'GET',
        `${whatsAppPath(number)}/status`,
      );
      return state.status === status ? state : undefined;
    },
    5000,
    `${number} ${status}`,
  );
}

/** Enables the session of `number`, scans its QR code with the phone, and waits until connected. */
export async function pairByQr(
  customer: WhatsAppCaller,
  network: FakeWhatsAppNetwork,
  number: string,
): Promise<void> {
  await customer.ok('POST', `${whatsAppPath(number)}/enable`);
  await sessionIn(customer, number, 'qr_pending');
  await network.scanQr(number);
  await sessionIn(customer, number, 'connected');
}
