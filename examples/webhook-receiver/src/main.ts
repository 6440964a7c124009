import { Switchboard, type WebhookEvent } from '@switchboard/sdk';
import { startWebhookReceiver } from './webhook-receiver';

// The API key and server come from SWITCHBOARD_API_KEY and SWITCHBOARD_BASE_URL.
const client = new Switchboard();

function print(event: WebhookEvent): void {
  // FaceTime events are flat; every other event carries its payload in `data`.
  const payload = JSON.stringify('data' in event ? event.data : event);
  const summary = payload.length > 140 ? `${payload.slice(0, 139)}…` : payload;
  console.log(`${new Date().toISOString()}  ${event.type.padEnd(26)} ${summary}`);
}

const receiver = await startWebhookReceiver(client, {
  port: Number(process.env.PORT ?? 4000),
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
