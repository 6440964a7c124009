import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ScenarioContext } from '../bench-mode';
import type { HttpLoadResult } from '../load/http-load';
import { sendLoad } from '../load/send-load';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { SwitchboardServer } from '../process/switchboard-server';
import { median, round } from '../stats/summary';
import { metric, type ScenarioOutcome } from './scenario-result';

const DAY_MS = 86_400_000;

/** Answers other than 2xx, and connection errors, over some load runs. */
function failures(runs: readonly HttpLoadResult[]): number {
  return runs.reduce(
    (sum, run) => sum + run.errors + Object.values(run.otherStatuses).reduce((a, b) => a + b, 0),
    0,
  );
}

/** Messages whose content retention has not redacted yet. */
function unredacted(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (
      db.prepare('select count(*) as n from messages where redacted_at is null').get() as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}

/** A copy of the growth fixture whose messages are all two days old. */
async function agedCopy(context: ScenarioContext, rows: number, path: string): Promise<number> {
  const source = await context.fixtures.database(rows);
  copyFileSync(source.path, path);
  // The fixture's secrets are sealed with the key file beside it.
  if (existsSync(`${source.path}.key`)) copyFileSync(`${source.path}.key`, `${path}.key`);
  const db = new Database(path);
  try {
    db.prepare('update messages set created_at = created_at - ?').run(2 * DAY_MS);
    db.prepare('update message_attempts set created_at = created_at - ?').run(2 * DAY_MS);
  } finally {
    db.close();
  }
  return source.messages;
}

/**
 * Scenario "pruning": what retention's pruning costs sends. The same database (the growth
 * fixture, aged two days) serves send acceptance twice: idle (no content period), then right
 * after a restart with `RETENTION_MESSAGE_CONTENT_DAYS=1`, while the worker redacts every old
 * message in batches. The p99 ratio prune / idle should stay within 1.5×.
 */
export async function pruning(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.pruning;
  const path = join(context.workDir, 'pruning.db');
  const messages = await agedCopy(context, settings.rows, path);
  const start = (label: string, env: Record<string, string>) =>
    SwitchboardServer.start({
      databasePath: path,
      label,
      env: { RETENTION_INTERVAL_MS: String(DAY_MS), ...env },
      ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
    });
  let server = await start('pruning-idle', {});
  let keys: string[] = [];
  const load = (url: string, tag: string): Promise<HttpLoadResult> =>
    sendLoad({ url, keys, connections: settings.connections, durationSec: settings.loadSec })(tag);
  const idle: HttpLoadResult[] = [];
  const busy: HttpLoadResult[] = [];
  const redactedDuring: number[] = [];
  /** Server CPU per accepted send over one load run, microseconds. */
  const cpuPerSend = async (run: () => Promise<HttpLoadResult>, into: HttpLoadResult[]) => {
    const before = cpuSeconds(server.pid);
    const result = await run();
    into.push(result);
    return ((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result.ok);
  };
  let idleCpu = 0;
  let busyCpu = 0;
  try {
    // The fixture's own customer (the one whose messages are pruned) sends.
    keys = [(await context.fixtures.template()).key];
    await load(server.url, 'warmup');
    await waitForCpuIdle(server.pid);
    idleCpu = await cpuPerSend(() => load(server.url, 'idle'), idle);
    await server.stop();
    // The restart starts the worker, whose first run redacts every message older than a day.
    server = await start('pruning-busy', { RETENTION_MESSAGE_CONTENT_DAYS: '1' });
    // The same warm-up as the idle phase, while the prune has already begun.
    await load(server.url, 'busy-warmup');
    const before = unredacted(path);
    busyCpu = await cpuPerSend(() => load(server.url, 'busy'), busy);
    const after = unredacted(path);
    redactedDuring.push(before - after);
    context.log(
      `  acceptance p99 idle ${round(idle[0]?.latency.p99 ?? 0)} ms, pruning ${round(busy[0]?.latency.p99 ?? 0)} ms; ${before - after} of ${before} old messages redacted during the load, ${after} left`,
    );
  } finally {
    await server.stop();
  }
  const idleP99 = median(idle.map((r) => r.latency.p99));
  const busyP99 = median(busy.map((r) => r.latency.p99));
  const ratio = busyP99 / idleP99;
  const redacted = median(redactedDuring);
  const loadSec = median(busy.map((r) => r.durationSec));
  return {
    id: 'pruning',
    title: 'Retention pruning',
    status: 'ok',
    metrics: [
      metric('old messages in the database', messages, 'messages'),
      metric('acceptance p99, idle', round(idleP99), 'ms'),
      metric('acceptance p99, while pruning', round(busyP99), 'ms'),
      metric('p99 ratio pruning / idle', round(ratio, 2), '×', { op: '<=', value: 1.5 }),
      metric('accepted sends/s, idle', round(median(idle.map((r) => r.okPerSec)), 0), 'req/s'),
      metric('accepted sends/s, pruning', round(median(busy.map((r) => r.okPerSec)), 0), 'req/s'),
      metric('server CPU per accepted send, idle', round(idleCpu, 0), 'µs'),
      metric('server CPU per accepted send, pruning (the prune included)', round(busyCpu, 0), 'µs'),
      metric('non-2xx answers or errors, idle / pruning', failures(idle), `/ ${failures(busy)}`),
      metric('messages redacted per second during the load', round(redacted / loadSec, 0), '/s'),
    ],
    details: [],
    notes: [
      `The growth fixture (${messages} messages cloned from real server rows), aged two days. Idle: send acceptance (${settings.connections} connections, ${settings.loadSec} s, after a warm-up) with no content period. Pruning: the server restarted with \`RETENTION_MESSAGE_CONTENT_DAYS=1\`; its retention worker's first run starts at once and redacts the old messages in batches of \`RETENTION_BATCH_SIZE\` (500) with a pause between them of at least \`RETENTION_BATCH_PAUSE_MS\` (20 ms) and at least as long as the batch took, while the same warm-up and then the measured load run. One round of each phase.`,
      `Redacted during the load: ${redacted} messages (the prune must still be running when the load ends for the ratio to mean "during a large prune").`,
    ],
  };
}
