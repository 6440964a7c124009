/**
 * `pnpm fake:whatsapp`: the server, configured from the environment as `pnpm start` is, with its
 * `baileys` instances on a fake WhatsApp instead of the real one (every number is on it), and a
 * control port that plays the phone and the contacts. A manual tool for trying WhatsApp pairing
 * and messaging without a phone; never part of a shipped bundle. It prints, in order, the commands
 * that create the instance, a customer and its key, pair the number, send and play a contact (a
 * test runs them: `test/cli/fake-walkthroughs.test.ts`).
 */
import { FakeWhatsAppNetwork } from '@switchboard/provider-baileys/fake-socket';
import { systemTimerClock } from '@switchboard/provider-kit';
import { parseFakeArgs } from '@switchboard/testing';
import Fastify from 'fastify';
import { systemClock } from '../../src/clock';
import { loadConfig } from '../../src/config';
import { runServer } from '../../src/server-process';
import { createDefaultProviderRegistry } from '../../src/wiring/default-provider-registry';

const USAGE = `Usage: pnpm fake:whatsapp [options]

Runs the server (configured from the environment and .env, as pnpm start is) with its baileys
instances on a fake WhatsApp, and a control port that plays the phone and the contacts.

Options:
  --control-port <port>   the fake's control port (default 4030; 0 picks a free one)
  --number <e164>         the number to pair, given to the customer (default +14155550170)`;

// Reads `.env` too, before the configuration is: the server below is the one the CLI finds.
const { values, serverUrl } = parseFakeArgs(USAGE, {
  'control-port': '4030',
  number: '+14155550170',
});
const number = values.number ?? '';

const network = new FakeWhatsAppNetwork(systemTimerClock, {
  receiptDelayMs: 1_000,
  everyone: true,
});
const config = loadConfig(process.env);
await runServer(config, {
  providerRegistry: createDefaultProviderRegistry({
    simulatorStepMs: config.simulatorStepMs,
    clock: systemClock,
    httpTimeoutMs: config.providerHttpTimeoutMs,
    baileys: { socketFactory: network.socketFactory, download: network.download },
  }),
});

type Body = Record<string, string>;
const control = Fastify();
/**
 * Runs a play of the phone that needs a socket in a given state (showing a QR code, open) and
 * waits for it (10 s at most): a session shows its first QR code, or reconnects after a drop, a
 * moment after the request that caused it.
 */
async function whenReady<T>(play: () => Promise<T>): Promise<T> {
  for (let waited = 0; ; waited += 100) {
    try {
      return await play();
    } catch (error) {
      if (waited >= 10_000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

control.post<{ Body: Body }>('/scan', async (request) => {
  await whenReady(() => network.scanQr(String(request.body.phoneNumber)));
  return { scanned: true };
});
control.post<{ Body: Body }>('/pairing-code', async (request) => {
  await network.enterPairingCode(String(request.body.code));
  return { entered: true };
});
control.post<{ Body: Body }>('/inbound', async (request) => {
  const { to = '', from = '', text = '' } = request.body;
  const message = await network.receive(to, { from, text });
  return { id: message.key.id };
});
control.post<{ Body: Body }>('/react', async (request) => {
  const { to = '', from = '', target = '', emoji = '' } = request.body;
  await network.react(
    to,
    from,
    { remoteJid: `${from.replace('+', '')}@s.whatsapp.net`, id: target, fromMe: true },
    emoji,
  );
  return { reacted: true };
});
control.post<{ Body: Body }>('/drop', async (request) => {
  await whenReady(() =>
    network.dropConnection(
      String(request.body.phoneNumber),
      Number(request.body.statusCode ?? 408),
    ),
  );
  return { dropped: true };
});
control.post<{ Body: Body }>('/unlink', async (request) => {
  await whenReady(() => network.unlinkFromPhone(String(request.body.phoneNumber)));
  return { unlinked: true };
});
control.get('/sent', async () =>
  network.sockets.flatMap((socket) =>
    socket.sent.map((entry) => ({
      to: entry.jid,
      id: entry.message.key.id,
      content: entry.message.message,
    })),
  ),
);
const controlUrl = await control.listen({
  port: Number(values['control-port']),
  host: '127.0.0.1',
});
const path = `/v1/whatsapp/numbers/${encodeURIComponent(number)}`;
process.stdout.write(`Switchboard with a fake WhatsApp: the API on ${serverUrl}, the fake's controls on ${controlUrl}

Create a baileys instance, a customer with an API key, and give it a number on the instance:
  ./switchboard instances create --name whatsapp-fake --provider baileys
  ./switchboard customers create --name "WhatsApp trial"
  ./switchboard api-keys create <customerId>
  ./switchboard numbers assign <customerId> --phone ${number} --instance whatsapp-fake --default

Pair it: enable the session and scan its QR code as the phone (or run
\`./switchboard whatsapp pair ${number} --api-key <apiKey>\` in another terminal to see the QR code):
  curl -X POST ${serverUrl}${path}/enable -H "Authorization: Bearer <apiKey>"
  curl -X POST ${controlUrl}/scan -H 'content-type: application/json' -d '{"phoneNumber":"${number}"}'

Send a message with the key, then play the contacts:
  curl -X POST ${serverUrl}/v1/messages -H "Authorization: Bearer <apiKey>" \\
    -H 'content-type: application/json' -d '{"to":"+14155550111","content":{"text":"Hello from Switchboard"},"routing":{"preference":["whatsapp"]}}'
  curl -X POST ${controlUrl}/inbound -H 'content-type: application/json' -d '{"to":"${number}","from":"+14155550111","text":"Hello"}'
  curl -X POST ${controlUrl}/react -H 'content-type: application/json' -d '{"to":"${number}","from":"+14155550111","target":"<message id>","emoji":"👍"}'
  curl -X POST ${controlUrl}/pairing-code -H 'content-type: application/json' -d '{"code":"<code>"}'
  curl ${controlUrl}/sent
  curl -X POST ${controlUrl}/drop -H 'content-type: application/json' -d '{"phoneNumber":"${number}","statusCode":"408"}'

The drop above is one the session recovers from (it reconnects); POST ${controlUrl}/unlink with
{"phoneNumber":"${number}"} plays the phone unlinking the device: the session ends, and pairing
starts over.
`);
