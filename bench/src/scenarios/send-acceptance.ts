import { join } from 'node:path';
import { BareServer } from '../baselines/bare-server-process';
import { measureSqliteCeiling } from '../baselines/sqlite-ceiling';
import type { ScenarioContext } from '../bench-mode';
import { type HttpLoadResult, runHttpLoad } from '../load/http-load';
import { probeSend } from '../load/probe-send';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { PeakRssWatch } from '../process/memory-probe';
import { SwitchboardServer } from '../process/switchboard-server';
import { recipientCount, recipientNumber } from '../seed/phone-numbers';
import { realisticSendBody } from '../seed/send-body';
import { seedTenants } from '../seed/tenants';
import { median, round } from '../stats/summary';
import { type DetailTable, metric, type ScenarioOutcome } from './scenario-result';

/**
 * How much the peak RSS of the last round may exceed the first's. A server that keeps something
 * per send (the simulator kept every message it sent: 189 → 228 → 250 MB) grows past it.
 */
const RSS_GROWTH_LIMIT = 1.15;

const MB = 1024 * 1024;

/** Builds the requests of one load run: keys round-robin, a unique idempotency key per send. */
function sendRequests(keys: readonly string[], runTag: string) {
  let sequence = 0;
  const recipients = recipientCount('imessage-delivered');
  return () => {
    sequence += 1;
    const key = keys[sequence % keys.length] ?? '';
    const to = recipientNumber('imessage-delivered', sequence % recipients);
    return {
      path: '/v1/messages',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(realisticSendBody(to, sequence, runTag)),
    };
  };
}

/**
 * Scenario 1, send acceptance: `POST /v1/messages` with a realistic body from 50 connections
 * spread over many API keys, against a bare Fastify POST route with the same body and answer
 * size. The simulator runs (step 0), so accepted messages are also driven to `delivered` in the
 * background, as in production.
 */
export async function sendAcceptance(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.sendAcceptance;
  const databasePath = join(context.workDir, 'send-acceptance.db');
  const server = await SwitchboardServer.start({
    databasePath,
    label: 'send-acceptance',
    ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
  });
  let bare: BareServer | undefined;
  try {
    const tenants = await seedTenants(server.url, {
      customers: settings.customers,
      keysPerCustomer: settings.keysPerCustomer,
    });
    const keys = tenants.flatMap((tenant) => tenant.keys);
    const probe = await probeSend(server.url, keys[0] ?? '');
    bare = await BareServer.start({ responseBytes: JSON.stringify(probe.answer.body).length });

    const load = (url: string, runTag: string, durationSec: number) =>
      runHttpLoad({
        url,
        method: 'POST',
        connections: settings.connections,
        durationSec,
        nextRequest: sendRequests(keys, runTag),
      });

    if (settings.warmupSec > 0) {
      await load(bare.url, 'warm-bare', settings.warmupSec);
      await load(server.url, 'warm', settings.warmupSec);
      await waitForCpuIdle(server.pid);
    }

    const rounds: Array<{
      server: HttpLoadResult;
      bare: HttpLoadResult;
      peakRss: number;
      cpuPerSendUs: number;
    }> = [];
    for (let index = 0; index < context.mode.rounds; index += 1) {
      // Alternate which target goes first, so slow drift of the shared machine cancels out.
      const runBare = () => load(bare?.url ?? '', `bare-${index}`, settings.durationSec);
      const runServer = async () => {
        const watch = new PeakRssWatch(server.pid);
        const cpuBefore = cpuSeconds(server.pid);
        const result = await load(server.url, `round-${index}`, settings.durationSec);
        const peakRss = watch.stop();
        // The sends' whole life: the simulator drives each to `delivered` after the load ends.
        await waitForCpuIdle(server.pid);
        const cpuPerSendUs = ((cpuSeconds(server.pid) - cpuBefore) * 1e6) / Math.max(1, result.ok);
        return { result, peakRss, cpuPerSendUs };
      };
      let bareResult: HttpLoadResult;
      let serverRun: { result: HttpLoadResult; peakRss: number; cpuPerSendUs: number };
      if (index % 2 === 0) {
        bareResult = await runBare();
        serverRun = await runServer();
      } else {
        serverRun = await runServer();
        bareResult = await runBare();
      }
      rounds.push({
        server: serverRun.result,
        bare: bareResult,
        peakRss: serverRun.peakRss,
        cpuPerSendUs: serverRun.cpuPerSendUs,
      });
      context.log(
        `  round ${index + 1}: ${round(serverRun.result.okPerSec, 0)} sends/s vs bare ${round(bareResult.okPerSec, 0)} req/s, p99 ${round(serverRun.result.latency.p99)} ms, ${round(serverRun.cpuPerSendUs, 0)} µs CPU per send`,
      );
      // The simulator finishes the lifecycle of what was accepted before the next measurement.
      await waitForCpuIdle(server.pid);
    }

    // The ceiling SQLite itself puts on acceptance, on the file the server just wrote.
    await bare.stop();
    await server.stop();
    const ceiling = measureSqliteCeiling(databasePath, context.mode.quick ? 500 : 20_000);
    const accepted = median(rounds.map((r) => r.server.okPerSec));
    const baseline = median(rounds.map((r) => r.bare.okPerSec));
    const ratio = median(rounds.map((r) => r.server.okPerSec / r.bare.okPerSec));
    const p50 = median(rounds.map((r) => r.server.latency.p50));
    const p99 = median(rounds.map((r) => r.server.latency.p99));
    const rejected = rounds.reduce(
      (sum, r) =>
        sum + Object.values(r.server.otherStatuses).reduce((a, b) => a + b, 0) + r.server.errors,
      0,
    );
    const details: DetailTable = {
      title: 'Rounds',
      columns: [
        'round',
        'accepted sends/s',
        'bare req/s',
        'ratio',
        'p50 ms',
        'p99 ms',
        'bare p50 ms',
        'bare p99 ms',
        'non-2xx + errors',
        'server peak RSS MB',
        'server CPU µs per send',
      ],
      rows: rounds.map((r, index) => [
        index + 1,
        round(r.server.okPerSec, 0),
        round(r.bare.okPerSec, 0),
        round(r.server.okPerSec / r.bare.okPerSec, 3),
        round(r.server.latency.p50),
        round(r.server.latency.p99),
        round(r.bare.latency.p50),
        round(r.bare.latency.p99),
        Object.values(r.server.otherStatuses).reduce((a, b) => a + b, 0) + r.server.errors,
        round(r.peakRss / MB, 1),
        round(r.cpuPerSendUs, 0),
      ]),
    };
    const notes = [
      "SQLite ceiling: the rows of one accepted send (its message and `message.queued` event, cloned from the ones the server wrote in this run) inserted through prepared statements with the server's pragmas, in the harness process, with no HTTP and no ORM: the most this database file accepts on this machine, per-send transactions versus grouped ones.",
      `${settings.connections} connections, ${keys.length} API keys over ${tenants.length} customers, ${settings.durationSec} s per run, ${context.mode.rounds} round(s).`,
    ];
    if (rejected > 0) {
      const perRound = rounds.map(
        (r, index) =>
          `round ${index + 1}: ${r.server.errors} errors or timeouts (10 s), statuses ${JSON.stringify(r.server.otherStatuses)}`,
      );
      notes.push(`Sends not accepted: ${perRound.join('; ')}.`);
    }
    return {
      id: 'send-acceptance',
      title: 'Send acceptance',
      status: 'ok',
      metrics: [
        metric('accepted sends/s', round(accepted, 0), 'req/s'),
        metric('bare Fastify POST baseline', round(baseline, 0), 'req/s'),
        metric('ratio to baseline', round(ratio, 3), '×', { op: '>=', value: 0.25 }),
        metric(
          `ratio to the SQLite ceiling, group commit of ${ceiling.groupSize}`,
          round(accepted / ceiling.groupCommit, 3),
          '×',
          { op: '>=', value: 0.35 },
        ),
        metric('p50 latency', round(p50), 'ms'),
        metric('p99 latency', round(p99), 'ms', { op: '<', value: 20 }),
        metric('server peak RSS', round(Math.max(...rounds.map((r) => r.peakRss)) / MB, 1), 'MB', {
          op: '<',
          value: 250,
        }),
        // One server process takes every round: memory it keeps per send shows as growth.
        metric(
          'server peak RSS, last round to first',
          round((rounds.at(-1)?.peakRss ?? 0) / Math.max(1, rounds[0]?.peakRss ?? 0), 2),
          '×',
          { op: '<=', value: RSS_GROWTH_LIMIT },
        ),
        metric(
          'server CPU per accepted send (its whole life, no webhooks)',
          round(median(rounds.map((r) => r.cpuPerSendUs)), 0),
          'µs',
          { op: '<=', value: 500 },
        ),
        metric(
          'SQLite ceiling, a transaction per send',
          round(ceiling.perSendTransaction, 0),
          'sends/s',
        ),
        metric(
          `SQLite ceiling, group commit of ${ceiling.groupSize}`,
          round(ceiling.groupCommit, 0),
          'sends/s',
        ),
      ],
      details: [details],
      notes,
    };
  } finally {
    await bare?.stop();
    await server.stop();
  }
}
