// The SDK's smoke test for other runtimes (Bun, Deno): plain JavaScript importing the built
// package. It reads the server address and key from the environment (as the client does), sends a
// message, follows it on the event stream to `message.delivered`, verifies a real webhook delivery
// whose raw body and headers arrive as JSON in argv[2], and prints one JSON line of results.
import { Switchboard } from '../../dist/index.js';
import { verifyWebhook, WebhookSignatureMismatchError } from '../../dist/webhooks/index.js';

const delivery = JSON.parse(globalThis.process?.argv?.[2] ?? globalThis.Deno.args[0]);
const client = new Switchboard();
const controller = new AbortController();
let resolveOpen;
const opened = new Promise((resolve) => {
  resolveOpen = resolve;
});
const stream = client.events.stream({
  events: ['message.sent', 'message.delivered'],
  signal: controller.signal,
  onOpen: () => resolveOpen(),
});
const seen = [];
const following = (async () => {
  for await (const event of stream) {
    seen.push(event.type);
    if (event.type === 'message.delivered') controller.abort();
  }
})();
await opened;
const sent = await client.messages.send({
  to: delivery.to,
  content: { text: 'From another runtime' },
});
await following;

const verified = await verifyWebhook({
  payload: delivery.body,
  headers: delivery.headers,
  secret: delivery.secret,
});
let tampered = 'accepted';
try {
  await verifyWebhook({
    payload: `${delivery.body} `,
    headers: delivery.headers,
    secret: delivery.secret,
  });
} catch (error) {
  tampered = error instanceof WebhookSignatureMismatchError ? error.reason : String(error);
}
const fetched = await client.messages.get(sent.id);
console.log(
  JSON.stringify({
    runtime: globalThis.Bun ? 'bun' : globalThis.Deno ? 'deno' : 'node',
    sentStatus: sent.status,
    stream: seen,
    finalStatus: fetched.status,
    verified: verified.type,
    tampered,
  }),
);
