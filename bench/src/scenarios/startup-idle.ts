import { join } from 'node:path';
import { BareServer } from '../baselines/bare-server-process';
import type { ScenarioContext } from '../bench-mode';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { SwitchboardServer } from '../process/switchboard-server';
import { median, round } from '../stats/summary';
import { metric, type ScenarioOutcome } from './scenario-result';

const MB = 1024 * 1024;

interface StartFigures {
  startMs: number;
  portOpenMs: number;
  /** From the first 200 until the server's CPU use settles (start-up work in the background). */
  settleMs: number;
  /** RSS once settled. */
  idleRss: number;
  /** Server CPU (user + system) from spawning until idle, with Node.js's own boot, ms. */
  startCpuMs: number;
}

async function startAndIdle(
  databasePath: string,
  settleMs: number,
  label: string,
  profileDir: string | undefined,
): Promise<StartFigures> {
  const server = await SwitchboardServer.start({
    databasePath,
    label,
    ...(profileDir ? { cpuProfileDir: profileDir } : {}),
  });
  try {
    // Idle: listening, start-up work in the background over (CPU settled), no request since.
    const settled = await waitForCpuIdle(server.pid, { timeoutMs: 60_000 });
    await new Promise((wake) => setTimeout(wake, settleMs));
    return {
      startMs: server.startMs,
      portOpenMs: server.portOpenMs,
      settleMs: settled,
      idleRss: server.memory().rssBytes,
      startCpuMs: cpuSeconds(server.pid) * 1000,
    };
  } finally {
    await server.stop();
  }
}

/**
 * Scenario 5, start-up and idle: the time from spawning `node dist/main.js` to the first 200 of
 * `GET /health` on the large database (migrations checked, workers started, nothing cached), and
 * the resident memory once idle; an empty database and a bare Fastify process for comparison.
 */
export async function startupIdle(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.startup;
  const large = await context.fixtures.database(context.mode.growth.largeRows);
  const onLarge: StartFigures[] = [];
  const onEmpty: StartFigures[] = [];
  const bareStarts: number[] = [];
  for (let index = 0; index < settings.starts; index += 1) {
    onLarge.push(
      await startAndIdle(large.path, settings.idleSettleMs, 'startup-large', context.profileDir),
    );
    onEmpty.push(
      await startAndIdle(
        join(context.workDir, `empty-${index}.db`),
        settings.idleSettleMs,
        'startup-empty',
        context.profileDir,
      ),
    );
    const started = performance.now();
    const bare = await BareServer.start({ responseBytes: 200 });
    bareStarts.push(performance.now() - started);
    await bare.stop();
    context.log(
      `  start ${index + 1}: ${round(onLarge.at(-1)?.startMs ?? Number.NaN, 0)} ms on ${large.messages} messages, idle RSS ${round((onLarge.at(-1)?.idleRss ?? Number.NaN) / MB, 1)} MB`,
    );
  }
  const startLarge = median(onLarge.map((f) => f.startMs));
  const idleLarge = median(onLarge.map((f) => f.idleRss));
  return {
    id: 'startup-idle',
    title: 'Start-up and idle',
    status: 'ok',
    metrics: [
      metric(`cold start to listening, ${large.messages} messages`, round(startLarge, 0), 'ms', {
        op: '<',
        value: 1000,
      }),
      metric(
        `port accepting connections, ${large.messages} messages`,
        round(median(onLarge.map((f) => f.portOpenMs)), 0),
        'ms',
      ),
      metric(
        'cold start to listening, new database',
        round(median(onEmpty.map((f) => f.startMs)), 0),
        'ms',
      ),
      metric(
        `background start-up work after listening, ${large.messages} messages`,
        round(median(onLarge.map((f) => f.settleMs)), 0),
        'ms',
      ),
      metric(
        `server CPU to start and settle, ${large.messages} messages`,
        round(median(onLarge.map((f) => f.startCpuMs)), 0),
        'ms',
      ),
      metric(
        'server CPU to start and settle, new database',
        round(median(onEmpty.map((f) => f.startCpuMs)), 0),
        'ms',
      ),
      metric('bare Fastify process start (baseline)', round(median(bareStarts), 0), 'ms'),
      metric(`idle RSS, ${large.messages} messages`, round(idleLarge / MB, 1), 'MB', {
        op: '<',
        value: 120,
      }),
      metric('idle RSS, new database', round(median(onEmpty.map((f) => f.idleRss)) / MB, 1), 'MB'),
    ],
    details: [
      {
        title: 'Starts',
        columns: [
          'start',
          'large DB ms',
          'large DB port open ms',
          'large DB settle ms',
          'large DB idle RSS MB',
          'large DB CPU ms',
          'new DB ms',
          'new DB idle RSS MB',
          'bare ms',
        ],
        rows: onLarge.map((f, index) => [
          index + 1,
          round(f.startMs, 0),
          round(f.portOpenMs, 0),
          round(f.settleMs, 0),
          round(f.idleRss / MB, 1),
          round(f.startCpuMs, 0),
          round(onEmpty[index]?.startMs ?? Number.NaN, 0),
          round((onEmpty[index]?.idleRss ?? Number.NaN) / MB, 1),
          round(bareStarts[index] ?? Number.NaN, 0),
        ]),
      },
    ],
    notes: [
      `Start time = spawning \`node dist/main.js\` (NODE_ENV=production) until \`GET /health\` first answers 200, polled every 2 ms; it includes Node.js's own boot. \`port accepting connections\` is when a TCP connect first succeeds. The bare baseline is measured the same way but runs through tsx (TypeScript loader), so it is an upper bound. Idle RSS is read once the server's CPU use has settled (< 5 % of a core: start-up work such as message recovery is over; the time this takes after the first 200 is reported) and ${settings.idleSettleMs} ms more, with no request served. Server CPU to start and settle = the process's user + system CPU (from \`/proc\`) at that moment: everything it did from spawn to idle, Node.js's boot included.`,
    ],
  };
}
