import { existsSync } from 'node:fs';
import { resolveServerUrl, Switchboard, type WebhookEvent } from '@switchboard/sdk';
import { startWebhookReceiver } from './webhook-receiver';

// The repository's .env (the server's own settings) applies here too; the environment wins.
const serverEnv = new URL('../../../.env', import.meta.url);
if (existsSync(serverEnv)) process.loadEnvFile(serverEnv);
// The API key comes from SWITCHBOARD_API_KEY; the server is found as every Switchboard tool finds
// it: SWITCHBOARD_URL, else PUBLIC_BASE_URL, else the server's HOST and PORT.
const client = new Switchboard({ baseUrl: resolveServerUrl(process.env) });

function print(event: WebhookEvent): void {
  // FaceTime events are flat; every other event carries its payload in `data`.
  const payload = JSON.stringify('data' in event ? event.data : event);
  const summary = payload.length > 140 ? `${payload.slice(0, 139)}…` : payload;
  console.log(`${new Date().toISOString()}  ${event.type.padEnd(26)} ${summary}`);
}

const receiver = await startWebhookReceiver(client, {
  // Not PORT: that is the server's.
  port: Number(process.env.RECEIVER_PORT ?? 4000),
  publicUrl: process.env.WEBHOOK_PUBLIC_URL,
  onEvent: print,
  onRejected: (reason) => console.warn(`rejected a request: ${reason}`),
});
console.log(`Receiving on ${receiver.url} (webhook ${receiver.webhookId}).`);

const test = await client.webhooks.test(receiver.webhookId);
console.log(`Test delivery: ${test.delivered ? 'delivered' : `not delivered (${test.error})`}.`);
console.log('Send a message to see its events; Ctrl-C removes the webhook and stops.\n');

process.once('SIGINT', () => {
  receiver.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
