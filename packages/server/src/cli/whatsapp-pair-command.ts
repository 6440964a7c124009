import type { Command } from 'commander';
import QRCode from 'qrcode';
import { request } from 'undici';
import type { CliEnvironment } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';
import {
  type CustomerApi,
  type CustomerApiOptions,
  customerApiOf,
  interruptSignal,
  withCustomerApiOptions,
} from './customer-api';
import { followEventStream, StreamRefusedError } from './event-stream-follower';

/** The session fields `whatsapp pair` shows. */
interface SessionState {
  phoneNumber: string;
  status: string;
  qrCode?: string;
  jid?: string;
  disconnectReason?: string;
}

/**
 * `switchboard whatsapp pair <number>` (a customer command): enables WhatsApp on one of the
 * customer's numbers, shows each QR code in the terminal as it comes (WhatsApp rotates them), and
 * follows the session until it is connected (exit 0) or gives up (exit 1).
 */
export function addWhatsAppCommands(program: Command, environment: CliEnvironment): void {
  const whatsapp = program.command('whatsapp').description('WhatsApp sessions of your numbers');
  withCustomerApiOptions(
    whatsapp
      .command('pair')
      .description('Pair a number: show the QR code in the terminal and wait until it is connected')
      .argument('<number>', 'one of your numbers, E.164'),
  ).action(async (number: string, options: CustomerApiOptions) => {
    const api = customerApiOf(options, environment);
    const phoneNumber = number.startsWith('+') ? number : `+${number}`;
    const print = (text: string) => environment.stdout.write(text);
    const controller = new AbortController();
    const stop = interruptSignal(environment);
    stop.addEventListener('abort', () => controller.abort(), { once: true });
    let outcome: SessionState | undefined;
    let shownQr: string | undefined;
    const show = async (state: SessionState): Promise<void> => {
      if (state.status === 'qr_pending' && state.qrCode && state.qrCode !== shownQr) {
        shownQr = state.qrCode;
        print(
          `\nScan with WhatsApp on the phone of ${phoneNumber} (Settings → Linked devices → Link a device):\n`,
        );
        print(await QRCode.toString(state.qrCode, { type: 'terminal', small: true }));
      } else if (state.status !== 'qr_pending') {
        print(`${phoneNumber}: ${state.status}\n`);
      }
      if (state.status === 'connected' || state.status === 'disconnected') {
        outcome = state;
        controller.abort();
      }
    };
    let opened: () => void = () => undefined;
    const streamOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let dropped = false;
    const following = followEventStream({
      ...api,
      ...environment.eventStream,
      events: 'whatsapp.status',
      signal: controller.signal,
      onOpen: () => {
        if (dropped) print(`Reconnected to ${api.baseUrl}.\n`);
        dropped = false;
        opened();
      },
      // As `listen` does: say why the server cannot be followed, and that it keeps trying.
      onDrop: (reason, delayMs) => {
        dropped = true;
        print(`! cannot reach ${api.baseUrl} (${reason}); retrying in ${delayMs / 1000} s\n`);
      },
      onEvent: async (message) => {
        const data = (JSON.parse(message.data) as { data?: SessionState }).data;
        if (data?.phoneNumber === phoneNumber) await show(data);
      },
    });
    try {
      // Subscribed first, so no change between the enable and the stream is missed.
      await Promise.race([streamOpen, following]);
      if (!controller.signal.aborted) await start(api, phoneNumber, show);
      await following;
    } catch (error) {
      controller.abort();
      await following.catch(() => undefined);
      if (error instanceof StreamRefusedError) throw new CliRefusalError(error.message);
      throw error;
    }
    if (outcome?.status === 'connected') {
      print(`Connected${outcome.jid ? ` as ${outcome.jid}` : ''}.\n`);
    } else if (outcome) {
      throw new CliRefusalError(
        `Pairing ended: ${outcome.disconnectReason ?? 'disconnected'}. Run the command again for a new QR code.`,
      );
    }
  });
}

/** What `POST …/enable` answers: the number and its session (`WhatsAppSession`). */
interface EnabledSession {
  phoneNumber: string;
  whatsapp: Omit<SessionState, 'phoneNumber' | 'qrCode'>;
}

/** Enables the session and shows where it stands (with the QR code when one is pending). */
async function start(
  api: CustomerApi,
  phoneNumber: string,
  show: (state: SessionState) => Promise<void>,
): Promise<void> {
  const path = `/v1/whatsapp/numbers/${encodeURIComponent(phoneNumber)}`;
  const enabled = await call<EnabledSession>(api, 'POST', `${path}/enable`);
  // The session's state is under `whatsapp` (the events carry it flat).
  const session: SessionState = { ...enabled.whatsapp, phoneNumber: enabled.phoneNumber };
  if (session.status === 'qr_pending') {
    const qr = await call<{ qrCode: string }>(api, 'GET', `${path}/qr`);
    await show({ ...session, qrCode: qr.qrCode });
  } else {
    await show(session);
  }
}

/** One customer API call; its `data`, or a refusal carrying the error envelope's message. */
async function call<T>(api: CustomerApi, method: 'GET' | 'POST', path: string): Promise<T> {
  const response = await request(`${api.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${api.apiKey}` },
  });
  const body = (await response.body.json()) as {
    success: boolean;
    data?: T;
    error?: { code: string; message: string };
  };
  if (!body.success || body.data === undefined) {
    throw new CliRefusalError(
      `${method} ${path} answered ${response.statusCode}: ${body.error?.code ?? ''} ${body.error?.message ?? ''}`.trim(),
    );
  }
  return body.data;
}
