/**
 * The baseline server of the HTTP scenarios, run as its own process: a bare Fastify 5 app with
 * nothing but what any JSON API does (parse the body, answer JSON), so the ratio against it shows
 * what Switchboard's own work costs on this machine.
 *
 * - `POST /v1/messages`: parses the JSON body and answers 202 with a body of `RESPONSE_BYTES`
 *   bytes (the size of the real 202), then broadcasts `EVENTS_PER_SEND` frames to the open
 *   `GET /v1/events` streams of the same bearer token, like a send's lifecycle events.
 * - `GET /v1/events`: a bare Server-Sent Events stream (one `write` per frame and subscriber).
 * - `GET /health`: readiness.
 */
import type { ServerResponse } from 'node:http';
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 0);
const responseBytes = Number(process.env.RESPONSE_BYTES ?? 230);
const eventsPerSend = Number(process.env.EVENTS_PER_SEND ?? 3);

const app = Fastify({ logger: false });
const streams = new Map<string, Set<ServerResponse>>();
let sequence = 0;

function answerOfSize(id: string): string {
  const base = { success: true, data: { id, status: 'queued' }, pad: '' };
  const room = responseBytes - JSON.stringify(base).length;
  return JSON.stringify({ ...base, pad: 'x'.repeat(Math.max(0, room)) });
}

function broadcast(token: string, messageId: string): void {
  const subscribers = streams.get(token);
  if (!subscribers || subscribers.size === 0) return;
  for (let index = 0; index < eventsPerSend; index += 1) {
    sequence += 1;
    const payload = JSON.stringify({
      id: `evt_${sequence}`,
      type: 'message.sent',
      timestamp: new Date().toISOString(),
      data: { messageId },
    });
    const frame = `id: evt_${sequence}\nevent: message.sent\ndata: ${payload}\n\n`;
    for (const response of subscribers) response.write(frame);
  }
}

app.get('/health', async () => ({ status: 'ok' }));

app.post('/v1/messages', async (request, reply) => {
  const body = request.body as { to?: string };
  sequence += 1;
  const id = `msg_${sequence}`;
  reply.code(202).header('content-type', 'application/json; charset=utf-8');
  // Broadcast after answering, as the real server emits events after its commit.
  setImmediate(() => broadcast(request.headers.authorization ?? '', id));
  return answerOfSize(`${id}-${body.to ?? ''}`);
});

app.get('/v1/events', (request, reply) => {
  const token = request.headers.authorization ?? '';
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(': connected\n\n');
  let subscribers = streams.get(token);
  if (!subscribers) {
    subscribers = new Set();
    streams.set(token, subscribers);
  }
  subscribers.add(response);
  response.once('close', () => subscribers?.delete(response));
});

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  for (const subscribers of streams.values()) for (const response of subscribers) response.end();
  void app.close().then(() => process.exit(0));
});
