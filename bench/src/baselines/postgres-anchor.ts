import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { cpuSecondsOrZero } from '../process/cpu-idle';

/** A row as PostgreSQL's text format gives it: every value a string, or null. */
type TextRow = Record<string, string | null>;

/** What PostgreSQL alone sustains for one kind of unit (an accepted send, a delivered message). */
export interface AnchorFigures {
  /** Units/s with one transaction per lifecycle step (what a server does without grouping). */
  perStepTransaction: number;
  /** Units/s with the steps of `groupSize` units committed in one transaction per step kind. */
  grouped: number;
  /** Statements (`BEGIN` and `COMMIT` included) per unit, per-step transactions. */
  statementsPerUnit: number;
  /** CPU of the PostgreSQL backends per unit (user + system, from `/proc`), µs, per-step / grouped. */
  backendCpuUs: { perStep: number; grouped: number };
  /** CPU of the harness (the `pg` client side) per unit, µs, per-step / grouped. */
  clientCpuUs: { perStep: number; grouped: number };
}

/** The PostgreSQL anchor of the scale-out scenario. */
export interface PostgresAnchor {
  /** The rows of one accepted send: the message, its `message.queued` event and its delivery. */
  send: AnchorFigures;
  /** The rows of one delivered message: the send's, two updates with their events and deliveries, three completions. */
  delivered: AnchorFigures;
  /** Connections written through at once (the server's pool size). */
  connections: number;
  /** Units per transaction in the grouped measurement. */
  groupSize: number;
}

/** Values of a query returned as PostgreSQL's text, so that cloned rows go back unchanged. */
const asText = { getTypeParser: () => (value: string) => value };

/** A named (prepared once per connection) insert of `columns` into `table`. */
function insertQuery(table: string, columns: readonly string[]) {
  const text = `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
  return (row: TextRow): pg.QueryConfig => ({
    name: `anchor-insert-${table}`,
    text,
    values: columns.map((column) => row[column] ?? null),
  });
}

const UPDATE_MESSAGE =
  'update messages set status = $1, external_id = coalesce($2, external_id), updated_at = now() where id = $3';
const COMPLETE_DELIVERY =
  "update webhook_deliveries set status = 'delivered', status_code = 200, duration_ms = 1, attempted_at = now() where id = $1";

/** The statements of one unit, one array per lifecycle step (each step its own transaction). */
type Steps = pg.QueryConfig[][];

/** Builds the statements of accepted sends and delivered messages from rows the server wrote. */
async function templates(client: pg.Client) {
  const one = async (sql: string) => {
    const result = await client.query<TextRow>({ text: sql, types: asText });
    const row = result.rows[0];
    if (!row) throw new Error(`the PostgreSQL anchor found nothing for: ${sql}`);
    return row;
  };
  const message = await one("select * from messages where direction = 'outbound' limit 1");
  const event = await one("select * from events where type = 'message.queued' limit 1");
  const delivery = await one('select * from webhook_deliveries limit 1');
  const insertMessage = insertQuery('messages', Object.keys(message));
  const insertEvent = insertQuery('events', Object.keys(event));
  const insertDelivery = insertQuery('webhook_deliveries', Object.keys(delivery));
  let sequence = 0;
  const eventWithDelivery = (messageId: string, type: string) => {
    const eventId = `evt_${uuidv7()}`;
    const deliveryId = `whd_${uuidv7()}`;
    return {
      deliveryId,
      statements: [
        insertEvent({ ...event, id: eventId, message_id: messageId, type }),
        insertDelivery({ ...delivery, id: deliveryId, event_id: eventId, event_type: type }),
      ],
    };
  };
  const update = (id: string, status: string, externalId: string | null): pg.QueryConfig => ({
    name: 'anchor-update-message',
    text: UPDATE_MESSAGE,
    values: [status, externalId, id],
  });
  const complete = (id: string): pg.QueryConfig => ({
    name: 'anchor-complete-delivery',
    text: COMPLETE_DELIVERY,
    values: [id],
  });
  return (kind: 'send' | 'delivered'): Steps => {
    sequence += 1;
    const id = `msg_${uuidv7()}`;
    const accepted = insertMessage({
      ...message,
      id,
      idempotency_key: `anchor-${sequence}-${id}`,
      external_id: null,
      status: 'queued',
    });
    const queued = eventWithDelivery(id, 'message.queued');
    const acceptStep = [accepted, ...queued.statements];
    if (kind === 'send') return [acceptStep];
    const sent = eventWithDelivery(id, 'message.sent');
    const done = eventWithDelivery(id, 'message.delivered');
    return [
      acceptStep,
      [update(id, 'sent', `ext-${id}`), ...sent.statements],
      [update(id, 'delivered', null), ...done.statements],
      [queued.deliveryId, sent.deliveryId, done.deliveryId].map(complete),
    ];
  };
}

/** Runs `units` units on `connections` clients at once, each unit's steps in `group`-sized transactions. */
async function drive(
  clients: readonly pg.Client[],
  unitOf: () => Steps,
  units: number,
  group: number,
): Promise<number> {
  let next = 0;
  const worker = async (client: pg.Client) => {
    while (next < units) {
      const batch: Steps[] = [];
      for (; batch.length < group && next < units; next += 1) batch.push(unitOf());
      const stepCount = batch[0]?.length ?? 0;
      for (let step = 0; step < stepCount; step += 1) {
        await client.query('BEGIN');
        for (const unit of batch)
          for (const statement of unit[step] ?? []) await client.query(statement);
        await client.query('COMMIT');
      }
    }
  };
  const started = performance.now();
  await Promise.all(clients.map(worker));
  return (units * 1000) / (performance.now() - started);
}

/** Measures one kind of unit, per-step transactions then grouped ones, with the CPU of both sides. */
async function measureKind(
  clients: readonly pg.Client[],
  backendPids: readonly number[],
  unitOf: () => Steps,
  units: number,
  groupSize: number,
): Promise<AnchorFigures> {
  const backendCpu = () => backendPids.reduce((sum, pid) => sum + cpuSecondsOrZero(pid), 0);
  const clientCpu = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const runs: Array<{ rate: number; backend: number; client: number }> = [];
  for (const group of [1, groupSize]) {
    const [backendBefore, clientBefore] = [backendCpu(), clientCpu()];
    const rate = await drive(clients, unitOf, units, group);
    runs.push({
      rate,
      backend: ((backendCpu() - backendBefore) * 1e6) / units,
      client: ((clientCpu() - clientBefore) * 1e6) / units,
    });
  }
  const [perStep, grouped] = runs as [(typeof runs)[0], (typeof runs)[0]];
  const steps = unitOf();
  return {
    perStepTransaction: perStep.rate,
    grouped: grouped.rate,
    statementsPerUnit: steps.reduce((sum, step) => sum + step.length + 2, 0),
    backendCpuUs: { perStep: perStep.backend, grouped: grouped.backend },
    clientCpuUs: { perStep: perStep.client, grouped: grouped.client },
  };
}

/**
 * The anchor of the scale-out scenario on PostgreSQL, on the database the server has just written
 * (like SQLite's ceiling on its file): the rows of one accepted send, and of one delivered
 * message, cloned from the server's own rows and written through `pg` with named (prepared)
 * statements on `connections` connections at once, first one transaction per lifecycle step, then
 * the steps of `groupSize` units in one transaction. No HTTP, no ORM, no reads: the most any server
 * on this PostgreSQL sustains for those rows on this machine. The CPU of its backends is read from
 * `/proc` (PostgreSQL runs on this machine), that of the `pg` client side from the harness.
 */
export async function measurePostgresAnchor(
  url: string,
  units: number,
  options: { connections?: number; groupSize?: number } = {},
): Promise<PostgresAnchor> {
  const connections = options.connections ?? 10;
  const groupSize = options.groupSize ?? 64;
  const clients = Array.from(
    { length: connections },
    () => new pg.Client({ connectionString: url }),
  );
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const backendPids = await Promise.all(
      clients.map(async (client) => {
        const result = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
        return Number(result.rows[0]?.pid);
      }),
    );
    const unitOf = await templates(clients[0] as pg.Client);
    const send = await measureKind(clients, backendPids, () => unitOf('send'), units, groupSize);
    const delivered = await measureKind(
      clients,
      backendPids,
      () => unitOf('delivered'),
      Math.max(1, Math.round(units / 3)),
      groupSize,
    );
    return { send, delivered, connections, groupSize };
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}
