/**
 * The local webhook receiver of the end-to-end scenario, run as its own process: it checks every
 * POST's signature (`X-Signature: sha256=<hex HMAC-SHA256(secret, "<X-Timestamp>.<raw body>")>`,
 * per the spec) with an HMAC of its own, answers 200, and counts what arrived by event type.
 * Switchboard's deliveries and the bare undici baseline hit the same receiver, so its cost is in
 * both figures.
 *
 * - `GET /stats`: the counts since the last reset ({@link ReceiverStats}).
 * - `POST /reset`: zero the counts.
 * - `GET /health`: readiness.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** What the receiver counted since its last reset. */
export interface ReceiverStats {
  /** Deliveries whose signature checked out. */
  valid: number;
  /** Deliveries with a missing or wrong signature. */
  invalid: number;
  /** Valid deliveries by `X-Event-Type`. */
  byType: Record<string, number>;
  /** Epoch ms of the first and last valid delivery; 0 before any. */
  firstAt: number;
  lastAt: number;
  /** Epoch ms of the last valid delivery of each type. */
  lastAtByType: Record<string, number>;
}

const secret = process.env.WEBHOOK_SECRET ?? '';
const port = Number(process.env.PORT ?? 0);

function emptyStats(): ReceiverStats {
  return { valid: 0, invalid: 0, byType: {}, firstAt: 0, lastAt: 0, lastAtByType: {} };
}
let stats = emptyStats();

function signatureIsValid(request: IncomingMessage, body: Buffer): boolean {
  const signature = request.headers['x-signature'];
  const timestamp = request.headers['x-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
  const given = Buffer.from(signature);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function record(request: IncomingMessage, body: Buffer): void {
  if (!signatureIsValid(request, body)) {
    stats.invalid += 1;
    return;
  }
  const now = Date.now();
  const typeHeader = request.headers['x-event-type'];
  const type = typeof typeHeader === 'string' ? typeHeader : 'unknown';
  stats.valid += 1;
  stats.byType[type] = (stats.byType[type] ?? 0) + 1;
  stats.lastAtByType[type] = now;
  if (stats.firstAt === 0) stats.firstAt = now;
  stats.lastAt = now;
}

function answer(response: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/stats') return answer(response, 200, stats);
  if (request.method === 'GET' && request.url === '/health') return answer(response, 200, {});
  if (request.method === 'POST' && request.url === '/reset') {
    stats = emptyStats();
    return answer(response, 200, {});
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    record(request, Buffer.concat(chunks));
    answer(response, 200);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
