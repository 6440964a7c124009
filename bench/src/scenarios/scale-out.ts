import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { apiRequest, UnexpectedAnswerError } from '../api/api-client';
import { measurePostgresAnchor, type PostgresAnchor } from '../baselines/postgres-anchor';
import type { ScenarioContext } from '../bench-mode';
import { probeSend } from '../load/probe-send';
import { sendBurst } from '../load/send-burst';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { PgBackendCpu } from '../process/pg-backend-cpu';
import { type BenchDatabase, createBenchDatabase } from '../process/postgres-database';
import { SwitchboardServer } from '../process/switchboard-server';
import { RECEIVER_SECRET, WebhookReceiver } from '../receiver/receiver-process';
import { seedTenants } from '../seed/tenants';
import { median, round } from '../stats/summary';
import { type DetailTable, type Metric, metric, type ScenarioOutcome } from './scenario-result';

/** Webhooks per message: queued, sent, delivered. */
const EVENTS_PER_MESSAGE = 3;
const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One deployment measured: its store and how many server processes. */
interface Setup {
  label: string;
  store: 'sqlite' | 'postgres';
  processes: number;
  /** `DATABASE_POOL_SIZE` of each process (PostgreSQL), when not the server's default of 10. */
  poolSize?: number;
  /** `DATABASE_NAMED_STATEMENTS=false` (PostgreSQL): statements unnamed, planned at every run. */
  unnamedStatements?: true;
}

/** The pool sizes one PostgreSQL process is also measured with, beside the default of 10. */
const OTHER_POOL_SIZES = [2, 30] as const;

const SETUPS: readonly Setup[] = [
  { label: 'SQLite, 1 process', store: 'sqlite', processes: 1 },
  { label: 'PostgreSQL + Redis, 1 process', store: 'postgres', processes: 1 },
  { label: 'PostgreSQL + Redis, 3 processes', store: 'postgres', processes: 3 },
  ...OTHER_POOL_SIZES.map(
    (poolSize): Setup => ({
      label: `PostgreSQL + Redis, 1 process, pool of ${poolSize}`,
      store: 'postgres',
      processes: 1,
      poolSize,
    }),
  ),
  {
    label: 'PostgreSQL + Redis, 1 process, unnamed statements',
    store: 'postgres',
    processes: 1,
    unnamedStatements: true,
  },
];

/** The figures of one setup (medians of its rounds). */
interface SetupFigures {
  setup: Setup;
  sendsPerSec: number;
  deliveredPerSec: number;
  webhooksPerSec: number;
  /** CPU (user + system) of the server processes together per delivered message, µs. */
  cpuPerMessageUs: number;
  /** CPU of the PostgreSQL backends of the setup's database per delivered message, µs. */
  pgBackendCpuPerMessageUs: number | undefined;
  complete: boolean;
  /** The PostgreSQL anchor, measured on this setup's database after its rounds (one process only). */
  anchor?: PostgresAnchor;
}

/** The server's pool size, which the anchor writes through as many connections as. */
const ANCHOR_CONNECTIONS = 10;

/**
 * Scale-out: the same burst of sends, each followed to `delivered` with three signed webhooks,
 * against one SQLite process, one PostgreSQL process and three PostgreSQL processes sharing one
 * database and one Redis (the load spread over the three by the client, as a load balancer would).
 * Reported as ratios to the SQLite process of the same run.
 */
export async function scaleOut(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.scaleOut;
  const results: SetupFigures[] = [];
  for (const setup of SETUPS) {
    results.push(await measureSetup(context, setup));
    context.log(
      `  ${setup.label}: ${round(results.at(-1)?.sendsPerSec ?? 0, 0)} sends/s, ${round(results.at(-1)?.webhooksPerSec ?? 0, 0)} webhooks/s`,
    );
  }
  const [sqlite, pgOne, pgThree, ...variants] = results as [
    SetupFigures,
    SetupFigures,
    SetupFigures,
    ...SetupFigures[],
  ];
  const notes = [
    `${settings.customers} customers, each with one webhook subscribed to \`*\`; up to ${settings.messages} sends per round from ${settings.sendConcurrency} concurrent clients (sending stops after ${settings.sendWindowSec} s), recipients the simulator delivers (${EVENTS_PER_MESSAGE} webhooks per message). PostgreSQL runs on the same machine (2 cores shared by the database, Redis, the server processes, the load and the receiver), so three processes cannot show more than the cores allow. Server CPU per delivered message = the user + system CPU of the server processes together (from \`/proc\`), from the burst's start until they are idle again, divided by the messages delivered. PostgreSQL backend CPU per message = the user + system CPU of the backends connected to the setup's database over the same window (from \`/proc\`; PostgreSQL's shared WAL writer, checkpointer and autovacuum are not in it, nor is Redis).`,
    `PostgreSQL anchor: the rows of one accepted send (the message, its \`message.queued\` event and that event's webhook delivery) and of one delivered message (those, the message updated to sent and to delivered each with its event and delivery, and the three deliveries completed), cloned from the rows the one-process server wrote in this run and written to its database through \`pg\` with named (prepared) statements on ${ANCHOR_CONNECTIONS} connections at once (the server's pool size), no HTTP, no ORM, no reads; first one transaction per lifecycle step, then the steps of ${pgOne.anchor?.groupSize ?? 64} units per transaction.`,
  ];
  if (results.some((r) => !r.complete)) {
    notes.push('A round did not deliver everything in its time bound: figures are what arrived.');
  }
  return {
    id: 'scale-out',
    title: 'Scale-out',
    status: 'ok',
    metrics: [
      ...scaleOutMetrics(sqlite, pgOne, pgThree, context.mode.quick),
      ...poolMetrics(
        pgOne,
        variants.filter((r) => r.setup.poolSize !== undefined),
      ),
      ...namedStatementMetrics(
        pgOne,
        variants.find((r) => r.setup.unnamedStatements),
      ),
    ],
    details: [setupsTable(results), ...(pgOne.anchor ? [anchorTable(pgOne.anchor)] : [])],
    notes,
  };
}

const ratio = (a: number, b: number) => round(a / Math.max(1e-9, b), 2);

/** The headline figures: each setup's, the anchor's, and issue 54's ratios with their targets. */
function scaleOutMetrics(
  sqlite: SetupFigures,
  pgOne: SetupFigures,
  pgThree: SetupFigures,
  quick: boolean,
): Metric[] {
  const checked = (name: string, value: number, unit: string, target: Metric['target']) =>
    quick ? metric(name, value, unit) : metric(name, value, unit, target);
  const perSetup = (figure: string, unit: string, value: (r: SetupFigures) => number) =>
    (
      [
        ['SQLite (1 process)', sqlite],
        ['PostgreSQL (1 process)', pgOne],
        ['PostgreSQL (3 processes)', pgThree],
      ] as const
    ).map(([label, r]) => metric(`${figure}, ${label}`, round(value(r), 0), unit));
  const anchor = pgOne.anchor;
  return [
    ...perSetup('sends/s', 'msg/s', (r) => r.sendsPerSec),
    ...perSetup('webhooks/s', 'req/s', (r) => r.webhooksPerSec),
    ...perSetup('server CPU per delivered message', 'µs', (r) => r.cpuPerMessageUs),
    metric(
      'PostgreSQL backend CPU per delivered message, 1 process',
      round(pgOne.pgBackendCpuPerMessageUs ?? 0, 0),
      'µs',
    ),
    metric(
      'PostgreSQL backend CPU per delivered message, 3 processes',
      round(pgThree.pgBackendCpuPerMessageUs ?? 0, 0),
      'µs',
    ),
    checked(
      'PostgreSQL 1 process to SQLite, server CPU per delivered message',
      ratio(pgOne.cpuPerMessageUs, sqlite.cpuPerMessageUs),
      '×',
      { op: '<=', value: 2 },
    ),
    checked(
      'PostgreSQL 1 process to SQLite, sends',
      ratio(pgOne.sendsPerSec, sqlite.sendsPerSec),
      '×',
      { op: '>=', value: 0.5 },
    ),
    checked(
      'PostgreSQL 3 processes to 1, server CPU per delivered message',
      ratio(pgThree.cpuPerMessageUs, pgOne.cpuPerMessageUs),
      '×',
      { op: '<=', value: 1.15 },
    ),
    metric(
      'PostgreSQL 3 processes to 1, sends',
      ratio(pgThree.sendsPerSec, pgOne.sendsPerSec),
      '×',
    ),
    ...(anchor
      ? [
          metric('PostgreSQL anchor, sends/s, grouped', round(anchor.send.grouped, 0), 'msg/s'),
          checked(
            'PostgreSQL 1 process sends to the grouped anchor',
            round(pgOne.sendsPerSec / Math.max(1e-9, anchor.send.grouped), 3),
            '×',
            { op: '>=', value: 0.35 },
          ),
        ]
      : []),
  ];
}

/** `DATABASE_POOL_SIZE`'s effect: one process with each other pool size against the default's. */
function poolMetrics(pgOne: SetupFigures, pools: readonly SetupFigures[]): Metric[] {
  return pools.flatMap((r) => [
    metric(
      `PostgreSQL 1 process, pool of ${r.setup.poolSize} to pool of 10, sends`,
      ratio(r.sendsPerSec, pgOne.sendsPerSec),
      '×',
    ),
    metric(
      `PostgreSQL 1 process, pool of ${r.setup.poolSize} to pool of 10, server CPU per delivered message`,
      ratio(r.cpuPerMessageUs, pgOne.cpuPerMessageUs),
      '×',
    ),
  ]);
}

/** `DATABASE_NAMED_STATEMENTS`' effect: one process with named statements (the default) against unnamed. */
function namedStatementMetrics(pgOne: SetupFigures, unnamed: SetupFigures | undefined): Metric[] {
  if (!unnamed) return [];
  const backend = (r: SetupFigures) => r.pgBackendCpuPerMessageUs ?? Number.NaN;
  return [
    metric(
      'PostgreSQL 1 process, named statements to unnamed, sends',
      ratio(pgOne.sendsPerSec, unnamed.sendsPerSec),
      '×',
    ),
    metric(
      'PostgreSQL 1 process, named statements to unnamed, server CPU per delivered message',
      ratio(pgOne.cpuPerMessageUs, unnamed.cpuPerMessageUs),
      '×',
    ),
    metric(
      'PostgreSQL 1 process, named statements to unnamed, PostgreSQL backend CPU per delivered message',
      ratio(backend(pgOne), backend(unnamed)),
      '×',
    ),
  ];
}

/** Each setup's figures, side by side. */
function setupsTable(results: readonly SetupFigures[]): DetailTable {
  const sqliteSends = results[0]?.sendsPerSec ?? 0;
  return {
    title: 'Setups',
    columns: [
      'setup',
      'sends/s',
      'delivered msgs/s',
      'webhooks/s',
      'server CPU µs/message',
      'PostgreSQL backend CPU µs/message',
      'sends to SQLite',
    ],
    rows: results.map((r) => [
      r.setup.label,
      round(r.sendsPerSec, 0),
      round(r.deliveredPerSec, 0),
      round(r.webhooksPerSec, 0),
      round(r.cpuPerMessageUs, 0),
      r.pgBackendCpuPerMessageUs === undefined ? '' : round(r.pgBackendCpuPerMessageUs, 0),
      ratio(r.sendsPerSec, sqliteSends),
    ]),
  };
}

/** The anchor's figures: per accepted send and per delivered message, per-step and grouped. */
function anchorTable(anchor: PostgresAnchor): DetailTable {
  const rows = (label: string, figures: PostgresAnchor['send']) => [
    [
      `${label}, a transaction per step`,
      round(figures.perStepTransaction, 0),
      figures.statementsPerUnit,
      round(figures.backendCpuUs.perStep, 0),
      round(figures.clientCpuUs.perStep, 0),
    ],
    [
      `${label}, ${anchor.groupSize} per transaction`,
      round(figures.grouped, 0),
      '',
      round(figures.backendCpuUs.grouped, 0),
      round(figures.clientCpuUs.grouped, 0),
    ],
  ];
  return {
    title: `PostgreSQL anchor (${anchor.connections} connections)`,
    columns: [
      'unit',
      'units/s',
      'statements/unit',
      'PostgreSQL backend CPU µs/unit',
      'pg client CPU µs/unit',
    ],
    rows: [...rows('accepted send', anchor.send), ...rows('delivered message', anchor.delivered)],
  };
}

/**
 * Measures one setup on a database of its own; on PostgreSQL with one process, also the anchor,
 * on that database once the server has stopped (a running server would take the anchor's queued
 * messages for its own and deliver them).
 */
async function measureSetup(context: ScenarioContext, setup: Setup): Promise<SetupFigures> {
  const database = setup.store === 'postgres' ? await createBenchDatabase() : undefined;
  try {
    const figures = await runSetup(context, setup, database);
    const variant = setup.poolSize !== undefined || setup.unnamedStatements;
    if (!database || setup.processes !== 1 || variant) return figures;
    const anchor = await measurePostgresAnchor(database.url, context.mode.quick ? 300 : 6_000, {
      connections: ANCHOR_CONNECTIONS,
    });
    return { ...figures, anchor };
  } finally {
    await database?.drop();
  }
}

/** Starts one setup, runs its rounds, and stops it. */
async function runSetup(
  context: ScenarioContext,
  setup: Setup,
  database: BenchDatabase | undefined,
): Promise<SetupFigures> {
  const settings = context.mode.scaleOut;
  const receiver = await WebhookReceiver.start();
  const env: Record<string, string> = database
    ? {
        SWITCHBOARD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        REDIS_URL: BENCH_REDIS_URL,
        REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
      }
    : {};
  const servers: SwitchboardServer[] = [];
  try {
    const databasePath = database?.url ?? join(context.workDir, 'scale-out.db');
    // One after the other: the first migrates a new database, the others find it done.
    for (let index = 0; index < setup.processes; index += 1) {
      servers.push(
        await SwitchboardServer.start({
          databasePath,
          label: `scale-out-${setup.store}-${index}`,
          env: {
            ...env,
            WEBHOOK_CONCURRENCY: '32',
            ...(setup.poolSize === undefined ? {} : { DATABASE_POOL_SIZE: String(setup.poolSize) }),
            ...(setup.unnamedStatements ? { DATABASE_NAMED_STATEMENTS: 'false' } : {}),
          },
          ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
        }),
      );
    }
    const urls = servers.map((server) => server.url);
    const first = urls[0] ?? '';
    const tenants = await seedTenants(first, { customers: settings.customers, keysPerCustomer: 1 });
    for (const [index, tenant] of tenants.entries()) {
      const answer = await apiRequest(first, 'POST', '/v1/webhooks', {
        token: tenant.keys[0] ?? '',
        body: { url: `${receiver.url}/hooks/${index}`, events: ['*'], secret: RECEIVER_SECRET },
      });
      if (answer.status !== 201) throw new UnexpectedAnswerError('POST /v1/webhooks', answer);
    }
    const keys = tenants.map((tenant) => tenant.keys[0] ?? '');
    await probeSend(first, keys[0] ?? '');
    for (const server of servers) await waitForCpuIdle(server.pid);

    const meter = database ? await PgBackendCpu.open(database.url) : undefined;
    const rounds: RoundFigures[] = [];
    try {
      for (let index = 0; index < context.mode.rounds; index += 1) {
        rounds.push(await measureRound(context, { setup, servers, receiver, keys, meter, index }));
      }
    } finally {
      await meter?.close();
    }
    const pgCpu = rounds.map((r) => r.pgBackendCpuPerMessageUs);
    return {
      setup,
      sendsPerSec: median(rounds.map((r) => r.sendsPerSec)),
      deliveredPerSec: median(rounds.map((r) => r.deliveredPerSec)),
      webhooksPerSec: median(rounds.map((r) => r.webhooksPerSec)),
      cpuPerMessageUs: median(rounds.map((r) => r.cpuPerMessageUs)),
      pgBackendCpuPerMessageUs: pgCpu.every((v) => v !== undefined)
        ? median(pgCpu as number[])
        : undefined,
      complete: rounds.every((r) => r.complete),
    };
  } finally {
    for (const server of servers) await server.stop();
    await receiver.stop();
  }
}

/** The figures of one round of a setup. */
type RoundFigures = Omit<SetupFigures, 'setup' | 'anchor'>;

/** One burst against a running setup, followed until delivered and the processes are idle. */
async function measureRound(
  context: ScenarioContext,
  run: {
    setup: Setup;
    servers: readonly SwitchboardServer[];
    receiver: WebhookReceiver;
    keys: string[];
    meter: PgBackendCpu | undefined;
    index: number;
  },
): Promise<RoundFigures> {
  const settings = context.mode.scaleOut;
  const { setup, servers, receiver, meter } = run;
  /** CPU the setup's server processes have used together, in seconds. */
  const cpuOf = () => servers.reduce((sum, server) => sum + cpuSeconds(server.pid), 0);
  await receiver.reset();
  await meter?.start();
  const cpuBefore = cpuOf();
  const startedAt = Date.now();
  const burst = await sendBurst({
    url: servers.map((server) => server.url),
    keys: run.keys,
    total: settings.messages,
    concurrency: settings.sendConcurrency,
    deadline: performance.now() + settings.sendWindowSec * 1000,
    runTag: `scale-${setup.store}-${setup.processes}-${run.index}`,
    behaviour: 'imessage-delivered',
  });
  const { complete, stats } = await receiver.waitForMessages(
    burst.accepted,
    EVENTS_PER_MESSAGE,
    performance.now() + settings.drainLimitSec * 1000,
  );
  const deliveredAt = stats.lastAtByType['message.delivered'] ?? stats.lastAt;
  for (const server of servers) await waitForCpuIdle(server.pid);
  const pgSeconds = await meter?.stop();
  const delivered = Math.max(1, stats.byType['message.delivered'] ?? burst.accepted);
  return {
    cpuPerMessageUs: ((cpuOf() - cpuBefore) * 1e6) / delivered,
    pgBackendCpuPerMessageUs: pgSeconds === undefined ? undefined : (pgSeconds * 1e6) / delivered,
    sendsPerSec: (burst.accepted * 1000) / Math.max(1, burst.elapsedMs),
    deliveredPerSec:
      ((stats.byType['message.delivered'] ?? 0) * 1000) / Math.max(1, deliveredAt - startedAt),
    webhooksPerSec: (stats.valid * 1000) / Math.max(1, stats.lastAt - stats.firstAt),
    complete,
  };
}
