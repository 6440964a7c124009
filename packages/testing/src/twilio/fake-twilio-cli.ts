/**
 * `pnpm fake:twilio`: runs the fake Twilio on loopback for manual trials of the Twilio adapter.
 * It prints, in order, the commands that create the instance, a customer and its key, point the
 * number at the instance, send a message and play a contact (a test runs them against a fresh
 * server: `packages/server/test/cli/fake-walkthroughs.test.ts`).
 */
import { parseFakeArgs, stopOnSignal } from '../fake-cli';
import { FakeTwilio } from './fake-twilio';

const USAGE = `Usage: pnpm fake:twilio [options]

Runs a fake Twilio on loopback and prints how to try Switchboard's Twilio adapter with it.

Options:
  --port <port>       the fake's port (default 4010; 0 picks a free one)
  --number <e164>     the Twilio number it owns (default +14155550140)
  --sms-url <url>     the number's "A message comes in" webhook (default: set it with the printed curl)
  --step-ms <ms>      the delay between a message's status callbacks (default 500)`;

const { values, serverUrl } = parseFakeArgs(USAGE, {
  port: '4010',
  number: '+14155550140',
  'sms-url': undefined,
  'step-ms': '500',
});
const number = values.number ?? '';

const fake = new FakeTwilio({ port: Number(values.port), stepMs: Number(values['step-ms']) });
const base = await fake.start();
fake.addNumber(number, values['sms-url']);
const config = { accountSid: fake.accountSid, apiBaseUrl: base, lookupBaseUrl: base };
process.stdout.write(`Fake Twilio on ${base} (account ${fake.accountSid}, number ${number}), for the Switchboard server at ${serverUrl}

Create the instance (it prints its ingress URL), a customer with an API key, and give it the number:
  TWILIO_AUTH_TOKEN=${fake.authToken} ./switchboard instances create --name twilio-fake \\
    --provider twilio --config '${JSON.stringify(config)}' --secret authToken=env:TWILIO_AUTH_TOKEN
  ./switchboard customers create --name "Twilio trial"
  ./switchboard api-keys create <customerId>
  ./switchboard numbers assign <customerId> --phone ${number} --instance twilio-fake --default

Point the number's "A message comes in" webhook at the instance's ingress URL:
  curl -X PUT ${base}/_fake/numbers/${encodeURIComponent(number)} -H 'content-type: application/json' \\
    -d '{"smsUrl":"<ingress URL>"}'

Send a message with the key, then play a contact:
  curl -X POST ${serverUrl}/v1/messages -H "Authorization: Bearer <apiKey>" \\
    -H 'content-type: application/json' -d '{"to":"+14155550111","content":{"text":"Hello from Switchboard"}}'
  curl -X POST ${base}/_fake/inbound -H 'content-type: application/json' \\
    -d '{"from":"+14155550111","to":"${number}","body":"Hello"}'
  curl -X PUT ${base}/_fake/recipients/%2B14155550122 -d '{"outcome":"undelivered","errorCode":30006,"lineType":"landline"}'
  curl -X PUT ${base}/_fake/faults -d '{"outOfOrder":true,"duplicateCallbacks":true}'
  curl ${base}/_fake/messages
`);

stopOnSignal(fake);
