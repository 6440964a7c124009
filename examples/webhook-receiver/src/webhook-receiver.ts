import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Switchboard, WebhookCreateParams, WebhookEvent } from '@switchboard/sdk';
import { verifyWebhook, WebhookVerificationError } from '@switchboard/sdk/webhooks';

/** Where the receiver listens and what it registers for. */
export interface WebhookReceiverOptions {
  /** The port to listen on; 0 picks a free one. Default 4000. */
  port?: number | undefined;
  /** The interface to listen on. Default `127.0.0.1`. */
  host?: string | undefined;
  /**
   * The URL Switchboard delivers to, when it is not `http://<host>:<port>/webhooks` (behind a
   * tunnel or a reverse proxy). Switchboard needs a public https URL unless the server runs with
   * `WEBHOOK_ALLOW_PRIVATE_URLS=true`.
   */
  publicUrl?: string | undefined;
  /** The event types to subscribe to. Default every type (`['*']`). */
  events?: WebhookCreateParams['events'] | undefined;
  /** Called once per verified event (duplicates are dropped), after the delivery was answered. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** Called when a request is refused, with the reason. */
  onRejected?: ((reason: string) => void) | undefined;
}

/** A running receiver with its webhook registration. */
export interface WebhookReceiver {
  /** The URL the webhook delivers to. */
  url: string;
  /** The id of the registered webhook. */
  webhookId: string;
  /** Deletes the webhook registration and stops listening. */
  close(): Promise<void>;
}

/** The path deliveries are accepted on. */
export const WEBHOOK_PATH = '/webhooks';

const REMEMBERED_EVENT_IDS = 5_000;

/**
 * Starts a node:http server that accepts Switchboard deliveries on `/webhooks`, registers it as a
 * webhook, and hands every delivery whose signature verifies to `onEvent`.
 *
 * It answers as Switchboard expects: 200 at once for a verified event (the work happens after
 * answering), 400 for a request that does not verify (never retried), and 503 while the secret is
 * not known yet (retried later).
 * @example
 * const receiver = await startWebhookReceiver(client, { onEvent: (e) => console.log(e.type) });
 */
export async function startWebhookReceiver(
  client: Switchboard,
  options: WebhookReceiverOptions,
): Promise<WebhookReceiver> {
  let secret: string | undefined;
  // Delivery is at least once: the same event can arrive twice. A real receiver keeps the ids it
  // handled in its database; the last few thousand in memory are enough for an example.
  const seen = new Set<string>();
  const firstTime = (id: string): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const oldest = seen.values().next().value;
    if (seen.size > REMEMBERED_EVENT_IDS && oldest !== undefined) seen.delete(oldest);
    return true;
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.onRejected?.(`handler failed: ${String(error)}`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (
      request.method !== 'POST' ||
      new URL(request.url ?? '/', 'http://x').pathname !== WEBHOOK_PATH
    ) {
      response.writeHead(404).end();
      return;
    }
    // Verify the raw bytes exactly as received: parsed and re-serialized JSON would not match.
    const body = await readBody(request);
    if (secret === undefined) {
      response.writeHead(503, { 'retry-after': '1' }).end();
      return;
    }
    let event: WebhookEvent;
    try {
      event = await verifyWebhook({ payload: body, headers: request.headers, secret });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      options.onRejected?.(error.message);
      response.writeHead(400, { 'content-type': 'text/plain' }).end(error.message);
      return;
    }
    response.writeHead(200).end();
    // FaceTime events are flat and carry `eventId`; every other event has the envelope's `id`.
    if (firstTime('id' in event ? event.id : event.eventId)) await options.onEvent(event);
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4000, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = options.publicUrl ?? `http://${host}:${port}${WEBHOOK_PATH}`;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));

  let webhook: Awaited<ReturnType<Switchboard['webhooks']['create']>>;
  try {
    webhook = await client.webhooks.create({
      url,
      events: options.events ?? ['*'],
      name: 'webhook-receiver example',
    });
  } catch (error) {
    await stop();
    throw error;
  }
  // Switchboard generated the secret and shows it only now: a real receiver stores it.
  secret = webhook.secret;

  return {
    url,
    webhookId: webhook.id,
    close: async () => {
      try {
        await client.webhooks.delete(webhook.id);
      } finally {
        server.closeAllConnections();
        await stop();
      }
    },
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
