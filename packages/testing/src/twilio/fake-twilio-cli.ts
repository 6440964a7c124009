/**
 * `pnpm fake:twilio`: runs the fake Twilio on loopback for manual trials of the Twilio adapter.
 *   pnpm fake:twilio [--port 4010] [--number +14155550100] [--sms-url <instance ingress URL>]
 *     [--step-ms 500]
 * It prints the instance config to create and the control routes that play a contact.
 */
import { parseArgs } from 'node:util';
import { stopOnSignal } from '../fake-cli';
import { FakeTwilio } from './fake-twilio';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    number: { type: 'string', default: '+14155550100' },
    'sms-url': { type: 'string' },
    'step-ms': { type: 'string', default: '500' },
  },
});

const fake = new FakeTwilio({ port: Number(values.port), stepMs: Number(values['step-ms']) });
const base = await fake.start();
fake.addNumber(values.number, values['sms-url']);
const config = { accountSid: fake.accountSid, apiBaseUrl: base, lookupBaseUrl: base };
process.stdout.write(`Fake Twilio on ${base} (account ${fake.accountSid}, number ${values.number})

Create the instance (it prints its ingress URL) and give the number to a customer:
  TWILIO_AUTH_TOKEN=${fake.authToken} ./switchboard instances create --name twilio-fake \\
    --provider twilio --config '${JSON.stringify(config)}' --secret authToken=env:TWILIO_AUTH_TOKEN
  ./switchboard numbers assign <customerId> --phone ${values.number} --instance twilio-fake

Point the number's "A message comes in" webhook at that URL:
  curl -X PUT ${base}/_fake/numbers/${encodeURIComponent(values.number)} -H 'content-type: application/json' \\
    -d '{"smsUrl":"<ingress URL>"}'

Play a contact:
  curl -X POST ${base}/_fake/inbound -H 'content-type: application/json' \\
    -d '{"from":"+14155550111","to":"${values.number}","body":"Hello"}'
  curl -X PUT ${base}/_fake/recipients/%2B14155550122 -d '{"outcome":"undelivered","errorCode":30006,"lineType":"landline"}'
  curl -X PUT ${base}/_fake/faults -d '{"outOfOrder":true,"duplicateCallbacks":true}'
  curl ${base}/_fake/messages
`);

stopOnSignal(fake);
