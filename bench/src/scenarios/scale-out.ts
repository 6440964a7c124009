import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { apiRequest, UnexpectedAnswerError } from '../api/api-client';
import { probeSend } from '../api/probe-send';
import type { ScenarioContext } from '../bench-mode';
import { sendBurst } from '../load/send-burst';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { createBenchDatabase } from '../process/postgres-database';
import { SwitchboardServer } from '../process/switchboard-server';
import { RECEIVER_SECRET, WebhookReceiver } from '../receiver/receiver-process';
import { seedTenants } from '../seed/tenants';
import { median, round } from '../stats/summary';
import { metric, type ScenarioOutcome } from './scenario-result';

/** Webhooks per message: queued, sent, delivered. */
const EVENTS_PER_MESSAGE = 3;
const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One deployment measured: its store and how many server processes. */
interface Setup {
  label: string;
  store: 'sqlite' | 'postgres';
  processes: number;
}

const SETUPS: readonly Setup[] = [
  { label: 'SQLite, 1 process', store: 'sqlite', processes: 1 },
  { label: 'PostgreSQL + Redis, 1 process', store: 'postgres', processes: 1 },
  { label: 'PostgreSQL + Redis, 3 processes', store: 'postgres', processes: 3 },
];

/** The figures of one setup (medians of its rounds). */
interface SetupFigures {
  setup: Setup;
  sendsPerSec: number;
  deliveredPerSec: number;
  webhooksPerSec: number;
  /** CPU (user + system) of the server processes together per delivered message, µs. */
  cpuPerMessageUs: number;
  complete: boolean;
}

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
  const [sqlite, pgOne, pgThree] = results as [SetupFigures, SetupFigures, SetupFigures];
  const ratio = (a: number, b: number) => round(a / Math.max(1e-9, b), 2);
  const notes = [
    `${settings.customers} customers, each with one webhook subscribed to \`*\`; up to ${settings.messages} sends per round from ${settings.sendConcurrency} concurrent clients (sending stops after ${settings.sendWindowSec} s), recipients the simulator delivers (${EVENTS_PER_MESSAGE} webhooks per message). PostgreSQL runs on the same machine (2 cores shared by the database, Redis, the server processes, the load and the receiver), so three processes cannot show more than the cores allow. Server CPU per delivered message = the user + system CPU of the server processes together (from \`/proc\`), from the burst's start until they are idle again, divided by the messages delivered; PostgreSQL's and Redis's own CPU is not in it.`,
  ];
  if (results.some((r) => !r.complete)) {
    notes.push('A round did not deliver everything in its time bound: figures are what arrived.');
  }
  return {
    id: 'scale-out',
    title: 'Scale-out',
    status: 'ok',
    metrics: [
      metric('sends/s, SQLite (1 process)', round(sqlite.sendsPerSec, 0), 'msg/s'),
      metric('sends/s, PostgreSQL (1 process)', round(pgOne.sendsPerSec, 0), 'msg/s'),
      metric('sends/s, PostgreSQL (3 processes)', round(pgThree.sendsPerSec, 0), 'msg/s'),
      metric('webhooks/s, SQLite (1 process)', round(sqlite.webhooksPerSec, 0), 'req/s'),
      metric('webhooks/s, PostgreSQL (1 process)', round(pgOne.webhooksPerSec, 0), 'req/s'),
      metric('webhooks/s, PostgreSQL (3 processes)', round(pgThree.webhooksPerSec, 0), 'req/s'),
      metric(
        'server CPU per delivered message, SQLite (1 process)',
        round(sqlite.cpuPerMessageUs, 0),
        'µs',
      ),
      metric(
        'server CPU per delivered message, PostgreSQL (1 process)',
        round(pgOne.cpuPerMessageUs, 0),
        'µs',
      ),
      metric(
        'server CPU per delivered message, PostgreSQL (3 processes)',
        round(pgThree.cpuPerMessageUs, 0),
        'µs',
      ),
      metric(
        'PostgreSQL 1 process to SQLite, sends',
        ratio(pgOne.sendsPerSec, sqlite.sendsPerSec),
        '×',
      ),
      metric(
        'PostgreSQL 3 processes to 1, sends',
        ratio(pgThree.sendsPerSec, pgOne.sendsPerSec),
        '×',
      ),
    ],
    details: [
      {
        title: 'Setups',
        columns: [
          'setup',
          'sends/s',
          'delivered msgs/s',
          'webhooks/s',
          'server CPU µs/message',
          'sends to SQLite',
        ],
        rows: results.map((r) => [
          r.setup.label,
          round(r.sendsPerSec, 0),
          round(r.deliveredPerSec, 0),
          round(r.webhooksPerSec, 0),
          round(r.cpuPerMessageUs, 0),
          ratio(r.sendsPerSec, sqlite.sendsPerSec),
        ]),
      },
    ],
    notes,
  };
}

/** Starts one setup, runs its rounds, and stops it. */
async function measureSetup(context: ScenarioContext, setup: Setup): Promise<SetupFigures> {
  const settings = context.mode.scaleOut;
  const receiver = await WebhookReceiver.start();
  const database = setup.store === 'postgres' ? await createBenchDatabase() : undefined;
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
          env: { ...env, WEBHOOK_CONCURRENCY: '32' },
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

    /** CPU the setup's server processes have used together, in seconds. */
    const cpuOf = () => servers.reduce((sum, server) => sum + cpuSeconds(server.pid), 0);
    const rounds: Array<Omit<SetupFigures, 'setup'>> = [];
    for (let index = 0; index < context.mode.rounds; index += 1) {
      await receiver.reset();
      const cpuBefore = cpuOf();
      const startedAt = Date.now();
      const burst = await sendBurst({
        url: urls,
        keys,
        total: settings.messages,
        concurrency: settings.sendConcurrency,
        deadline: performance.now() + settings.sendWindowSec * 1000,
        runTag: `scale-${setup.store}-${setup.processes}-${index}`,
        behaviour: 'imessage-delivered',
      });
      const { complete, stats } = await receiver.waitForMessages(
        burst.accepted,
        EVENTS_PER_MESSAGE,
        performance.now() + settings.drainLimitSec * 1000,
      );
      const deliveredAt = stats.lastAtByType['message.delivered'] ?? stats.lastAt;
      for (const server of servers) await waitForCpuIdle(server.pid);
      const delivered = stats.byType['message.delivered'] ?? burst.accepted;
      rounds.push({
        cpuPerMessageUs: ((cpuOf() - cpuBefore) * 1e6) / Math.max(1, delivered),
        sendsPerSec: (burst.accepted * 1000) / Math.max(1, burst.elapsedMs),
        deliveredPerSec:
          ((stats.byType['message.delivered'] ?? 0) * 1000) / Math.max(1, deliveredAt - startedAt),
        webhooksPerSec: (stats.valid * 1000) / Math.max(1, stats.lastAt - stats.firstAt),
        complete,
      });
    }
    return {
      setup,
      sendsPerSec: median(rounds.map((r) => r.sendsPerSec)),
      deliveredPerSec: median(rounds.map((r) => r.deliveredPerSec)),
      webhooksPerSec: median(rounds.map((r) => r.webhooksPerSec)),
      cpuPerMessageUs: median(rounds.map((r) => r.cpuPerMessageUs)),
      complete: rounds.every((r) => r.complete),
    };
  } finally {
    for (const server of servers) await server.stop();
    await receiver.stop();
    await database?.drop();
  }
}
