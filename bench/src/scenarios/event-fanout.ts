import { join } from 'node:path';
import { assertImplemented } from '../api/api-client';
import { probeStatus } from '../api/probe-status';
import { BareServer } from '../baselines/bare-server-process';
import type { ScenarioContext } from '../bench-mode';
import { pacedSends } from '../load/paced-sender';
import { probeSend } from '../load/probe-send';
import { SseSubscribers } from '../load/sse-subscribers';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { PeakRssWatch } from '../process/memory-probe';
import { SwitchboardServer } from '../process/switchboard-server';
import { recipientCount, recipientNumber } from '../seed/phone-numbers';
import { realisticSendBody } from '../seed/send-body';
import { seedTenants } from '../seed/tenants';
import { type LatencySummary, median, round, summarizeLatencies } from '../stats/summary';
import type { ScenarioOutcome } from './scenario-result';
import { metric } from './scenario-result';

const MB = 1024 * 1024;
/** Events of one send to a recipient the simulator delivers over iMessage: queued, sent, delivered. */
const EVENTS_PER_SEND = 3;

interface FanoutRun {
  latency: LatencySummary;
  frames: number;
  /** Event frames received per second, from the first to the last. */
  framesPerSec: number;
  expectedFrames: number;
  eventsPerSec: number;
  disconnects: number;
  skippedSends: number;
  peakRss: number;
  /** Server CPU per accepted send (its 3 events to every stream, and its lifecycle), µs. */
  cpuPerSendUs: number;
}

/** Waits until no new frame arrived for `quietMs` (or `maxMs` passed): the stream has caught up. */
async function waitForQuiet(
  subscribers: SseSubscribers,
  quietMs: number,
  maxMs: number,
): Promise<void> {
  const deadline = performance.now() + maxMs;
  let last = subscribers.frames;
  while (performance.now() < deadline) {
    await new Promise((wake) => setTimeout(wake, quietMs));
    if (subscribers.frames === last) return;
    last = subscribers.frames;
  }
}

/**
 * Scenario 3, event stream fan-out: many concurrent `GET /v1/events` subscribers (spread over
 * several customers) while sends at a fixed rate produce the target events per second; latency
 * from the event's commit (its envelope `timestamp`) to its receipt by each subscriber. Baseline:
 * the same subscribers and producer against a bare Fastify SSE broadcaster.
 */
export async function eventFanout(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.fanout;
  const server = await SwitchboardServer.start({
    databasePath: join(context.workDir, 'event-fanout.db'),
    label: 'event-fanout',
    ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
  });
  let bare: BareServer | undefined;
  try {
    const tenants = await seedTenants(server.url, {
      customers: settings.customers,
      keysPerCustomer: 1,
    });
    const keys = tenants.map((tenant) => tenant.keys[0] ?? '');
    const status = await probeStatus(server.url, '/v1/events', keys[0] ?? '');
    assertImplemented('GET /v1/events', { status, body: undefined });
    const probe = await probeSend(server.url, keys[0] ?? '');
    bare = await BareServer.start({
      responseBytes: JSON.stringify(probe.answer.body).length,
      eventsPerSend: EVENTS_PER_SEND,
    });
    const tokens = Array.from(
      { length: settings.subscribers },
      (_, index) => keys[index % keys.length] ?? '',
    );
    const subscribersPerCustomer = settings.subscribers / keys.length;
    const sendRate = settings.eventsPerSec / EVENTS_PER_SEND;
    const recipients = recipientCount('imessage-delivered');

    const run = async (
      url: string,
      pid: number | undefined,
      runTag: string,
    ): Promise<FanoutRun> => {
      const subscribers = await SseSubscribers.open({ url, tokens });
      try {
        const body = (sequence: number) =>
          JSON.stringify(
            realisticSendBody(
              recipientNumber('imessage-delivered', sequence % recipients),
              sequence,
              runTag,
            ),
          );
        if (!context.mode.quick) {
          await pacedSends({
            url,
            keys,
            ratePerSec: sendRate,
            durationSec: 1,
            body: (s) => body(-s),
          });
          await waitForQuiet(subscribers, 300, 5_000);
        }
        subscribers.reset();
        const watch = pid === undefined ? undefined : new PeakRssWatch(pid);
        const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid);
        const sent = await pacedSends({
          url,
          keys,
          ratePerSec: sendRate,
          durationSec: settings.durationSec,
          body,
        });
        await waitForQuiet(subscribers, 500, 10_000);
        const peakRss = watch?.stop() ?? Number.NaN;
        if (pid !== undefined) await waitForCpuIdle(pid);
        const cpuPerSendUs =
          pid === undefined
            ? Number.NaN
            : ((cpuSeconds(pid) - cpuBefore) * 1e6) / Math.max(1, sent.accepted);
        return {
          latency: summarizeLatencies(subscribers.latencies),
          frames: subscribers.frames,
          framesPerSec:
            (subscribers.frames * 1000) /
            Math.max(1, subscribers.lastFrameAt - subscribers.firstFrameAt),
          expectedFrames: sent.accepted * EVENTS_PER_SEND * subscribersPerCustomer,
          eventsPerSec: (sent.accepted * EVENTS_PER_SEND * 1000) / sent.elapsedMs,
          disconnects: subscribers.disconnects,
          skippedSends: sent.skipped,
          peakRss,
          cpuPerSendUs,
        };
      } finally {
        subscribers.close();
      }
    };

    const rounds: Array<{ server: FanoutRun; bare: FanoutRun }> = [];
    for (let index = 0; index < context.mode.rounds; index += 1) {
      const serverRun = await run(server.url, server.pid, `round-${index}`);
      await waitForCpuIdle(server.pid);
      const bareRun = await run(bare.url, undefined, `bare-${index}`);
      rounds.push({ server: serverRun, bare: bareRun });
      context.log(
        `  round ${index + 1}: p99 ${round(serverRun.latency.p99)} ms (bare ${round(bareRun.latency.p99)} ms), ${serverRun.frames}/${serverRun.expectedFrames} frames, ${round(serverRun.eventsPerSec, 0)} events/s, peak RSS ${round(serverRun.peakRss / MB, 1)} MB, ${round(serverRun.cpuPerSendUs, 0)} µs CPU per send`,
      );
    }

    const p99 = median(rounds.map((r) => r.server.latency.p99));
    const peakRss = Math.max(...rounds.map((r) => r.server.peakRss));
    const completeness = median(
      rounds.map((r) => r.server.frames / Math.max(1, r.server.expectedFrames)),
    );
    const produced = median(rounds.map((r) => r.server.eventsPerSec));
    const shortfall =
      produced < settings.eventsPerSec * 0.9
        ? [
            `The producer asked for ${settings.eventsPerSec} events/s but the server accepted sends for only ${round(produced, 0)} events/s while serving the streams (sends beyond 500 in flight were skipped): the latency figures hold for that rate.`,
          ]
        : [];
    return {
      id: 'event-fanout',
      title: 'Event stream fan-out',
      status: 'ok',
      metrics: [
        metric('subscribers', settings.subscribers, 'streams'),
        metric(
          'events produced/s',
          round(median(rounds.map((r) => r.server.eventsPerSec)), 0),
          'events/s',
        ),
        metric(
          'frames delivered/s',
          round(median(rounds.map((r) => r.server.framesPerSec)), 0),
          'frames/s',
        ),
        metric(
          'p50 commit → receipt',
          round(median(rounds.map((r) => r.server.latency.p50))),
          'ms',
        ),
        metric('p99 commit → receipt', round(p99), 'ms', { op: '<', value: 100 }),
        metric('bare SSE baseline p99', round(median(rounds.map((r) => r.bare.latency.p99))), 'ms'),
        metric('frames received / expected', round(completeness, 3), '', { op: '>=', value: 1 }),
        metric('server peak RSS', round(peakRss / MB, 1), 'MB', { op: '<', value: 300 }),
        metric(
          'server CPU per send (3 events, each to 100 streams, and its lifecycle)',
          round(median(rounds.map((r) => r.server.cpuPerSendUs)), 0),
          'µs',
        ),
      ],
      details: [
        {
          title: 'Rounds (server, then the bare baseline)',
          columns: [
            'round',
            'events/s',
            'frames',
            'expected',
            'p50 ms',
            'p99 ms',
            'max ms',
            'bare p50 ms',
            'bare p99 ms',
            'disconnects',
            'sends skipped',
            'peak RSS MB',
          ],
          rows: rounds.map((r, index) => [
            index + 1,
            round(r.server.eventsPerSec, 0),
            r.server.frames,
            r.server.expectedFrames,
            round(r.server.latency.p50),
            round(r.server.latency.p99),
            round(r.server.latency.max),
            round(r.bare.latency.p50),
            round(r.bare.latency.p99),
            r.server.disconnects,
            r.server.skippedSends,
            round(r.server.peakRss / MB, 1),
          ]),
        },
      ],
      notes: [
        `${settings.subscribers} subscribers over ${keys.length} customers (${subscribersPerCustomer} each, no filter), sends at ${round(sendRate, 1)}/s for ${settings.durationSec} s (${EVENTS_PER_SEND} events each, spread over the customers): every event goes to ${subscribersPerCustomer} streams. Latency is receipt time minus the envelope's \`timestamp\` (1 ms resolution, one clock).`,
        'The subscribers and the producer run in the harness process, on the same two cores as the server: the bare baseline shows what that setup alone costs.',
        ...shortfall,
      ],
    };
  } finally {
    await bare?.stop();
    await server.stop();
  }
}
