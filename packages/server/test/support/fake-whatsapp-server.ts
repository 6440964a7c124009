/**
 * `pnpm fake:whatsapp`: the server, configured from the environment as `pnpm start` is, with its
 * `baileys` instances on a fake WhatsApp instead of the real one (every number is on it), and a
 * control port that plays the phone and the contacts. A manual tool for trying WhatsApp pairing
 * and messaging without a phone; never part of a shipped bundle.
 *   pnpm fake:whatsapp [--control-port 4030]
 */
import { parseArgs } from 'node:util';
import { FakeWhatsAppNetwork } from '@switchboard/provider-baileys/fake-socket';
import { systemTimerClock } from '@switchboard/provider-kit';
import Fastify from 'fastify';
import { systemClock } from '../../src/clock';
import { loadConfig } from '../../src/config';
import { runServer } from '../../src/server-process';
import { createDefaultProviderRegistry } from '../../src/wiring/default-provider-registry';

const { values } = parseArgs({ options: { 'control-port': { type: 'string', default: '4030' } } });

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
control.post<{ Body: Body }>('/scan', async (request) => {
  await network.scanQr(String(request.body.phoneNumber));
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
  await network.dropConnection(
    String(request.body.phoneNumber),
    Number(request.body.statusCode ?? 408),
  );
  return { dropped: true };
});
control.post<{ Body: Body }>('/unlink', async (request) => {
  await network.unlinkFromPhone(String(request.body.phoneNumber));
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
process.stdout.write(`Switchboard with a fake WhatsApp: the API on ${config.host}:${config.port}, the fake's controls on ${controlUrl}

Create a baileys instance and give a customer a number on it:
  ./switchboard instances create --name whatsapp-fake --provider baileys
  ./switchboard numbers assign <customerId> --phone +14155550170 --instance whatsapp-fake
Then enable the session (POST /v1/whatsapp/numbers/14155550170/enable) and play the phone:
  curl -X POST ${controlUrl}/scan -H 'content-type: application/json' -d '{"phoneNumber":"+14155550170"}'
  curl -X POST ${controlUrl}/pairing-code -H 'content-type: application/json' -d '{"code":"<code>"}'
  curl -X POST ${controlUrl}/inbound -H 'content-type: application/json' -d '{"to":"+14155550170","from":"+14155550111","text":"Hello"}'
  curl -X POST ${controlUrl}/react -H 'content-type: application/json' -d '{"to":"+14155550170","from":"+14155550111","target":"<message id>","emoji":"👍"}'
  curl -X POST ${controlUrl}/drop -H 'content-type: application/json' -d '{"phoneNumber":"+14155550170","statusCode":"408"}'
  curl -X POST ${controlUrl}/unlink -H 'content-type: application/json' -d '{"phoneNumber":"+14155550170"}'
  curl ${controlUrl}/sent
`);
