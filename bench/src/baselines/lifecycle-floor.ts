/**
 * The floor of the end-to-end scenario, run as its own process: the least work any durable
 * gateway must do for one message of that scenario on Switchboard's data model, written the
 * plainest fast way (prepared statements, one group commit per event-loop turn, no ORM, no
 * validation, no framework beyond a bare Fastify route), so that the server's CPU per message
 * can be compared with what its writes and HTTP alone cost on this machine in the same run.
 *
 * Per message, like the server:
 * - `POST /v1/messages`: parses the body, authenticates the bearer token (its SHA-256 looked up
 *   in `api_keys`, joined to a live customer), inserts the message, its `message.queued` event
 *   and that event's webhook delivery, commits, answers 202.
 * - then `sent` and `delivered`: each an update of the message (status, timeline, provider id)
 *   with an event and its delivery, committed.
 * - every committed delivery is signed (HMAC-SHA256 of `<timestamp>.<body>`) and POSTed to the
 *   receiver, at most `WEBHOOK_CONCURRENCY` at a time, and its outcome recorded on its row.
 *
 * Rows are cloned from the ones the real server wrote (a copy of its database, so the same
 * tables and indexes). Left out, as work a floor need not do: the provider attempt rows, status
 * updates read back from storage, opt-out and sender look-ups, retries, leases, the event
 * stream. So the server cannot reach this floor; the ratio says how far above it it runs.
 *
 * Environment: `PORT`, `DATABASE_PATH`, `RECEIVER_URL`, `WEBHOOK_SECRET`, `WEBHOOK_CONCURRENCY`,
 * and `LEAVE_OUT` (from the harness's `BENCH_FLOOR_LEAVE_OUT`), a diagnostic: a comma-separated
 * list of writes to skip, to see what each part of the data model costs. `completions`: the
 * deliveries' outcome updates; `deliveries`: the delivery rows and their outcomes; `events`: the
 * event rows (and so the deliveries); `indexes`: the secondary indexes of the three tables.
 * `WRITER` (from `BENCH_FLOOR_WRITER`), another diagnostic: `thread` runs every write and commit
 * on a thread of its own with its own connection (`lifecycle-floor-writer.ts`), the main thread
 * keeping HTTP, look-ups and signing: what moving the writer off the event loop buys.
 */
import { createHash, createHmac } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { FLOOR_UPDATES, type FloorWrite } from './lifecycle-floor-writer';
import { insertStatement } from './sqlite-ceiling';

type Row = Record<string, unknown>;

const port = Number(process.env.PORT ?? 0);
const secret = process.env.WEBHOOK_SECRET ?? '';
const concurrency = Number(process.env.WEBHOOK_CONCURRENCY ?? 32);
const leaveOut = new Set((process.env.LEAVE_OUT ?? '').split(',').filter(Boolean));
if (leaveOut.has('events')) leaveOut.add('deliveries');
if (leaveOut.has('deliveries')) leaveOut.add('completions');
const db = new Database(process.env.DATABASE_PATH ?? '');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('temp_store = MEMORY');

if (leaveOut.has('indexes')) {
  const names = db
    .prepare(
      "select name from sqlite_master where type = 'index' and sql is not null and tbl_name in ('messages', 'events', 'webhook_deliveries') and sql not like 'CREATE UNIQUE%'",
    )
    .pluck()
    .all() as string[];
  for (const name of names) db.exec(`drop index "${name}"`);
}

const messageTemplate = db
  .prepare("select * from messages where direction = 'outbound' limit 1")
  .get() as Row;
const deliveryTemplate = db.prepare('select * from webhook_deliveries limit 1').get() as Row;
const eventTemplate = db.prepare("select * from events where type = 'message.queued'").get() as Row;
if (!messageTemplate || !deliveryTemplate || !eventTemplate) {
  throw new Error('the floor needs a database the server has delivered a message in');
}
/** The message as events carry it (`data` of a `message.*` event the server wrote). */
const dataTemplate = (JSON.parse(String(eventTemplate.payload)) as { data: Row }).data;

/** The floor's five writes: run at once on this connection, or collected for the writer thread. */
interface Writes {
  insertMessage(row: Row): void;
  insertEvent(row: Row): void;
  insertDelivery(row: Row): void;
  updateMessage(...args: unknown[]): void;
  completeDelivery(...args: unknown[]): void;
}

const writerThread = process.env.WRITER === 'thread';
/** The writes of the group being collected, when the writer is a thread. */
let collected: FloorWrite[] = [];
const writes: Writes = writerThread
  ? {
      insertMessage: (row) => collected.push({ op: 'insert', table: 'messages', row }),
      insertEvent: (row) => collected.push({ op: 'insert', table: 'events', row }),
      insertDelivery: (row) => collected.push({ op: 'insert', table: 'webhook_deliveries', row }),
      updateMessage: (...args) => collected.push({ op: 'updateMessage', args }),
      completeDelivery: (...args) => collected.push({ op: 'completeDelivery', args }),
    }
  : (() => {
      const updateMessage = db.prepare(FLOOR_UPDATES.updateMessage);
      const completeDelivery = db.prepare(FLOOR_UPDATES.completeDelivery);
      return {
        insertMessage: insertStatement(db, 'messages', Object.keys(messageTemplate)),
        insertEvent: insertStatement(db, 'events', Object.keys(eventTemplate)),
        insertDelivery: insertStatement(db, 'webhook_deliveries', Object.keys(deliveryTemplate)),
        updateMessage: updateMessage.run.bind(updateMessage),
        completeDelivery: completeDelivery.run.bind(completeDelivery),
      };
    })();
/** The writer thread's module, loaded through tsx's hooks: a thread does not inherit its parent's. */
const writerModule = new URL('./lifecycle-floor-writer.ts', import.meta.url).href;
const writer = writerThread
  ? new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(writerModule)}); })`,
      {
        eval: true,
        workerData: { floorWriter: true, databasePath: process.env.DATABASE_PATH ?? '' },
      },
    )
  : undefined;
/** What to do once each group the writer thread is committing has committed, oldest first. */
const committing: Array<Array<() => void>> = [];
writer?.on('message', () => {
  for (const then of committing.shift() ?? []) then();
});
const customerOfKey = db
  .prepare(
    'select k.customer_id from api_keys k join customers c on c.id = k.customer_id where k.key_hash = ? and k.revoked_at is null and c.deleted_at is null',
  )
  .pluck();
const begin = db.prepare('BEGIN');
const commit = db.prepare('COMMIT');

/** Writes waiting for the next group commit, and what to do once it committed. */
let queued: { write: () => void; then: () => void }[] = [];

function flush(): void {
  const batch = queued;
  queued = [];
  if (writer) collected = [];
  else begin.run();
  for (const item of batch) item.write();
  if (writer) {
    committing.push(batch.map((item) => item.then));
    writer.postMessage(collected);
    return;
  }
  commit.run();
  for (const item of batch) item.then();
}

/** Runs `write` in the next group commit, then `then` once it is durable. */
function durably(write: () => void, then: () => void): void {
  if (queued.length === 0) setImmediate(flush);
  queued.push({ write, then });
}

/** One message in flight: what its events repeat. */
interface Flight {
  id: string;
  customerId: string;
  data: Row;
  timeline: { status: string; at: string }[];
}

/** A committed delivery waiting for a connection. */
interface Outgoing {
  id: string;
  type: string;
  body: string;
}

const pool = new Pool(process.env.RECEIVER_URL ?? '', { connections: concurrency });
const waiting: Outgoing[] = [];
let inFlight = 0;

function recordEvent(flight: Flight, type: string, now: Date): Outgoing {
  const eventId = `evt_${uuidv7()}`;
  const body = JSON.stringify({
    id: eventId,
    type,
    timestamp: now.toISOString(),
    data: flight.data,
  });
  const at = now.getTime();
  const deliveryId = `whd_${uuidv7()}`;
  if (leaveOut.has('events')) return { id: deliveryId, type, body };
  writes.insertEvent({
    ...eventTemplate,
    id: eventId,
    customer_id: flight.customerId,
    type,
    payload: body,
    message_id: flight.id,
    created_at: at,
  });
  if (leaveOut.has('deliveries')) return { id: deliveryId, type, body };
  writes.insertDelivery({
    ...deliveryTemplate,
    id: deliveryId,
    customer_id: flight.customerId,
    event_id: eventId,
    event_type: type,
    attempt: 1,
    status: 'pending',
    status_code: null,
    duration_ms: null,
    error: null,
    created_at: at,
    attempted_at: null,
    next_attempt_at: at,
    lease_owner: null,
    lease_until: null,
  });
  return { id: deliveryId, type, body };
}

function post(outgoing: Outgoing): void {
  if (inFlight >= concurrency) {
    waiting.push(outgoing);
    return;
  }
  inFlight += 1;
  const started = performance.now();
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret)
    .update(`${timestamp}.`)
    .update(outgoing.body)
    .digest('hex');
  pool
    .request({
      method: 'POST',
      path: '/hooks/floor',
      headers: {
        'content-type': 'application/json',
        'x-signature': `sha256=${signature}`,
        'x-timestamp': String(timestamp),
        'x-event-type': outgoing.type,
      },
      body: outgoing.body,
    })
    .then(async (response) => {
      await response.body.dump();
      const code = response.statusCode;
      const duration = Math.round(performance.now() - started);
      if (leaveOut.has('completions')) return;
      durably(
        () =>
          writes.completeDelivery(
            code < 300 ? 'delivered' : 'failed',
            code,
            duration,
            Date.now(),
            outgoing.id,
          ),
        () => undefined,
      );
    })
    .catch((error: unknown) => {
      process.stderr.write(`floor: a webhook failed: ${String(error)}\n`);
    })
    .finally(() => {
      inFlight -= 1;
      const next = waiting.shift();
      if (next) post(next);
    });
}

/** Moves a message on to `status`: its row, an event and its delivery, then the webhook. */
function advance(flight: Flight, status: 'sent' | 'delivered', then?: () => void): void {
  let outgoing: Outgoing | undefined;
  durably(
    () => {
      const now = new Date();
      flight.timeline.push({ status, at: now.toISOString() });
      flight.data = { ...flight.data, status, updatedAt: now.toISOString() };
      writes.updateMessage(
        status,
        JSON.stringify(flight.timeline),
        status === 'sent' ? `sim_${flight.id}` : null,
        now.getTime(),
        flight.id,
      );
      outgoing = recordEvent(flight, `message.${status}`, now);
    },
    () => {
      if (outgoing) post(outgoing);
      then?.();
    },
  );
}

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
app.post('/v1/messages', (request, reply) => {
  const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
  const customerId = customerOfKey.get(createHash('sha256').update(token).digest('hex')) as
    | string
    | undefined;
  if (!customerId) {
    void reply.code(401).send({ success: false, error: { code: 'unauthorized' } });
    return;
  }
  const body = request.body as {
    to?: string;
    content?: { text?: string };
    idempotencyKey?: string;
    metadata?: Row;
  };
  const text = body.content?.text ?? '';
  const id = `msg_${uuidv7()}`;
  const now = new Date();
  const flight: Flight = {
    id,
    customerId,
    data: {
      ...dataTemplate,
      id,
      to: body.to,
      content: { text },
      metadata: body.metadata,
      status: 'queued',
      createdAt: now.toISOString(),
    },
    timeline: [{ status: 'queued', at: now.toISOString() }],
  };
  let outgoing: Outgoing | undefined;
  durably(
    () => {
      writes.insertMessage({
        ...messageTemplate,
        id,
        customer_id: customerId,
        to_address: body.to,
        text,
        metadata: JSON.stringify(body.metadata ?? {}),
        status: 'queued',
        idempotency_key: body.idempotencyKey ?? null,
        external_id: null,
        timeline: JSON.stringify(flight.timeline),
        created_at: now.getTime(),
        updated_at: now.getTime(),
      });
      outgoing = recordEvent(flight, 'message.queued', now);
    },
    () => {
      void reply.code(202).send({ success: true, data: flight.data });
      if (outgoing) post(outgoing);
      advance(flight, 'sent', () => advance(flight, 'delivered'));
    },
  );
});

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.close())
    .then(() => {
      db.close();
      return writer?.terminate();
    })
    .then(() => {
      process.exit(0);
    });
});
