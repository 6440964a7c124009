/**
 * `pnpm fake:bluebubbles`: runs the fake BlueBubbles Server on loopback, so an operator can try
 * the BlueBubbles adapter without a Mac. It prints, in order, the commands that create the
 * instance, a customer and its key, send a message and play a contact (a test runs them against
 * a fresh server: `packages/server/test/cli/fake-walkthroughs.test.ts`).
 */
import { parseFakeArgs, stopOnSignal } from '../fake-cli';
import { FakeBlueBubbles, PRIVATE_API_ENABLED } from './fake-bluebubbles';

const USAGE = `Usage: pnpm fake:bluebubbles [options]

Runs a fake BlueBubbles Server on loopback and prints how to try Switchboard's BlueBubbles adapter
with it.

Options:
  --port <port>         the fake's port (default 4020; 0 picks a free one)
  --address <e164>      the Mac's iMessage number, given to the customer (default +14155550130)
  --password <secret>   the server password (default fake-bluebubbles-password)
  --step-ms <ms>        the delay between a message's delivery steps (default 500)
  --macos <version>     the macOS version the fake reports (default 14.6.1)`;

const { values, serverUrl } = parseFakeArgs(USAGE, {
  port: '4020',
  address: '+14155550130',
  password: 'fake-bluebubbles-password',
  'step-ms': '500',
  macos: '14.6.1',
});
const address = values.address ?? '';

const fake = new FakeBlueBubbles({
  port: Number(values.port),
  password: values.password ?? '',
  stepMs: Number(values['step-ms']),
  // A Mac set up as the guide asks (Private API enabled; upstream's default is off).
  switches: { ...PRIVATE_API_ENABLED, macOsVersion: values.macos ?? '' },
});
const base = await fake.start();
// `address`: without it the instance takes the account the Mac detects (an Apple ID here), and
// inbound messages to the customer's number would not be routed to it.
const config = { serverUrl: base, address };
process.stdout.write(`Fake BlueBubbles Server on ${base} (password ${fake.password}, macOS ${values.macos}), for the Switchboard server at ${serverUrl}

Create the instance (it registers its ingress URL with the fake as a webhook), a customer with an
API key, and give it the Mac's number:
  BLUEBUBBLES_PASSWORD=${fake.password} WEBHOOK_ALLOW_PRIVATE_URLS=true ./switchboard instances create \\
    --name mac-fake --provider bluebubbles --channels imessage,sms \\
    --config '${JSON.stringify(config)}' --secret password=env:BLUEBUBBLES_PASSWORD
  ./switchboard customers create --name "BlueBubbles trial"
  ./switchboard api-keys create <customerId>
  ./switchboard numbers assign <customerId> --phone ${address} --instance mac-fake --default

Send a message with the key, then play a contact (the API itself is under ${base}/api/v1?password=…):
  curl -X POST ${serverUrl}/v1/messages -H "Authorization: Bearer <apiKey>" \\
    -H 'content-type: application/json' -d '{"to":"+14155550111","content":{"text":"Hello from Switchboard"}}'
  curl -X POST ${base}/_fake/inbound -H 'content-type: application/json' -d '{"from":"+14155550111","text":"Hello"}'
  curl -X POST ${base}/_fake/tapback -H 'content-type: application/json' -d '{"from":"+14155550111","target":"<message GUID>","reaction":"love"}'
  curl -X POST ${base}/_fake/typing -H 'content-type: application/json' -d '{"from":"+14155550111","display":true}'
  curl -X POST ${base}/_fake/facetime -H 'content-type: application/json' -d '{"caller":"+14155550111"}'
  curl -X PUT ${base}/_fake/switches -H 'content-type: application/json' -d '{"helperConnected":false}'
  curl -X PUT ${base}/_fake/faults -H 'content-type: application/json' -d '{"duplicateWebhooks":true,"loseWebhooks":3}'
  curl -X POST ${base}/_fake/replay
  curl ${base}/_fake/messages
`);

stopOnSignal(fake);
