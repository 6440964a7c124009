/**
 * `pnpm fake:bluebubbles`: runs the fake BlueBubbles Server on loopback, so an operator can try
 * the BlueBubbles adapter without a Mac.
 *   pnpm fake:bluebubbles [--port 4020] [--password secret] [--step-ms 500] [--macos 14.6.1]
 * It prints the instance config to create and the control routes that play a contact.
 */
import { parseArgs } from 'node:util';
import { stopOnSignal } from '../fake-cli';
import { FakeBlueBubbles } from './fake-bluebubbles';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4020' },
    password: { type: 'string', default: 'fake-bluebubbles-password' },
    'step-ms': { type: 'string', default: '500' },
    macos: { type: 'string', default: '14.6.1' },
  },
});

const fake = new FakeBlueBubbles({
  port: Number(values.port),
  password: values.password,
  stepMs: Number(values['step-ms']),
  switches: { macOsVersion: values.macos },
});
const base = await fake.start();
process.stdout.write(`Fake BlueBubbles Server on ${base} (password ${fake.password}, macOS ${values.macos})

Create the instance (it registers its ingress URL with the fake as a webhook) and give a customer the Mac's address:
  BLUEBUBBLES_PASSWORD=${fake.password} WEBHOOK_ALLOW_PRIVATE_URLS=true ./switchboard instances create \\
    --name mac-fake --provider bluebubbles --channels imessage,sms \\
    --config '{"serverUrl":"${base}"}' --secret password=env:BLUEBUBBLES_PASSWORD
  ./switchboard numbers assign <customerId> --phone +14155550100 --instance mac-fake

Play a contact (the API itself is under ${base}/api/v1?password=…):
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
