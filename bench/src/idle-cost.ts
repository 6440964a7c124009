import { randomBytes } from 'node:crypto';
import { apiRequest, UnexpectedAnswerError } from './api/api-client';
import { cpuSeconds, waitForCpuIdle } from './process/cpu-idle';
import { PgBackendCpu } from './process/pg-backend-cpu';
import { createBenchDatabase } from './process/postgres-database';
import { ensureServerBuilt } from './process/server-build';
import { SwitchboardServer } from './process/switchboard-server';
import { seedTenants } from './seed/tenants';

/**
 * What idle server processes cost on PostgreSQL + Redis: 1 and 3 processes on one database, each
 * customer with a webhook subscribed to `*` (as in the scale-out scenario), no sends; the CPU of
 * the server processes and of the database's backends (from `/proc`) over an idle window, per
 * second. Server settings pass through as `BENCH_SERVER_<NAME>=value`, as for `pnpm bench`.
 *
 *   pnpm --filter @switchboard/bench exec tsx src/idle-cost.ts [windowSeconds] [customers]
 */
const WINDOW_SEC = Number(process.argv[2] ?? 10);
const CUSTOMERS = Number(process.argv[3] ?? 8);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Idle CPU of one setup, in ms of CPU per second of wall time. */
interface IdleCost {
  processes: number;
  serverMsPerSec: number;
  backendMsPerSec: number;
}

async function measure(processes: number): Promise<IdleCost> {
  const database = await createBenchDatabase();
  const servers: SwitchboardServer[] = [];
  try {
    const env = {
      SWITCHBOARD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      REDIS_URL,
      REDIS_KEY_PREFIX: `bench-idle-${randomBytes(4).toString('hex')}:`,
    };
    for (let index = 0; index < processes; index += 1) {
      servers.push(
        await SwitchboardServer.start({ databasePath: database.url, label: `idle-${index}`, env }),
      );
    }
    const first = servers[0]?.url ?? '';
    const tenants = await seedTenants(first, { customers: CUSTOMERS, keysPerCustomer: 1 });
    for (const tenant of tenants) {
      const answer = await apiRequest(first, 'POST', '/v1/webhooks', {
        token: tenant.keys[0] ?? '',
        body: { url: 'https://receiver.invalid/hook', events: ['*'] },
      });
      if (answer.status !== 201) throw new UnexpectedAnswerError('POST /v1/webhooks', answer);
    }
    for (const server of servers) await waitForCpuIdle(server.pid);
    const meter = await PgBackendCpu.open(database.url);
    try {
      await meter.start();
      const before = servers.map((server) => cpuSeconds(server.pid));
      await new Promise((wake) => setTimeout(wake, WINDOW_SEC * 1000));
      const after = servers.map((server) => cpuSeconds(server.pid));
      const backend = await meter.stop();
      const server = after.reduce((sum, value, index) => sum + value - (before[index] ?? 0), 0);
      return {
        processes,
        serverMsPerSec: (server * 1000) / WINDOW_SEC,
        backendMsPerSec: (backend * 1000) / WINDOW_SEC,
      };
    } finally {
      await meter.close();
    }
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
}

ensureServerBuilt((line) => console.error(line));
for (const processes of [1, 3]) {
  const cost = await measure(processes);
  console.log(
    `${cost.processes} process(es), ${WINDOW_SEC} s idle: server ${cost.serverMsPerSec.toFixed(1)} ms CPU/s, PostgreSQL backends ${cost.backendMsPerSec.toFixed(1)} ms CPU/s`,
  );
}
