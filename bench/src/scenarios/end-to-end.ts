import { join } from 'node:path';
import Database from 'better-sqlite3';
import { apiRequest, assertImplemented, UnexpectedAnswerError } from '../api/api-client';
import { LifecycleFloor } from '../baselines/lifecycle-floor-process';
import type { ScenarioContext } from '../bench-mode';
import { probeSend } from '../load/probe-send';
import { sendBurst } from '../load/send-burst';
import { waitUntil } from '../load/wait-until';
import { webhookPostLoop } from '../load/webhook-post-loop';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { bytesWritten } from '../process/io-counters';
import { PeakRssWatch } from '../process/memory-probe';
import { SwitchboardServer } from '../process/switchboard-server';
import { RECEIVER_SECRET, WebhookReceiver } from '../receiver/receiver-process';
import { seedTenants } from '../seed/tenants';
import { median, round } from '../stats/summary';
import { type BacklogSample, DeliveryBacklogSampler } from './delivery-backlog';
import { metric, type ScenarioOutcome } from './scenario-result';

const MB = 1024 * 1024;
/** The server's webhook concurrency in this scenario; the baseline loop uses as many clients. */
const WEBHOOK_CONCURRENCY = 32;
/** Events per message for the recipients used (iMessage sent → delivered): queued, sent, delivered. */
const EVENTS_PER_MESSAGE = 3;

interface RoundFigures {
  accepted: number;
  deliveredPerSec: number;
  webhooksPerSec: number;
  baselinePerSec: number;
  webhooksReceived: number;
  invalidSignatures: number;
  maxBacklog: number;
  finalBacklog: number;
  drainSec: number;
  complete: boolean;
  peakRss: number;
  /** Server CPU (user + system) per fully delivered message, in microseconds. */
  cpuPerMessageUs: number;
  /** Bytes the server wrote to storage (WAL and checkpoints) per delivered message, if known. */
  writtenPerMessage: number | undefined;
  /** The same burst through the floor (`lifecycle-floor.ts`), right after the server's. */
  floor: FloorFigures;
}

/** What the floor did with one round's burst. */
interface FloorFigures {
  deliveredPerSec: number;
  /** Floor CPU (user + system) per fully delivered message, in microseconds. */
  cpuPerMessageUs: number;
  /** Bytes the floor wrote to storage per delivered message, if known. */
  writtenPerMessage: number | undefined;
  complete: boolean;
}

/** A real event payload of this run, for the baseline loop to POST (same size, same receiver). */
function sampleEventPayload(databasePath: string): string {
  const db = new Database(databasePath, { readonly: true });
  try {
    const payload = db
      .prepare("select payload from events where type = 'message.delivered' limit 1")
      .pluck()
      .get();
    return typeof payload === 'string' ? payload : '{}';
  } finally {
    db.close();
  }
}

/**
 * Scenario 2, end to end: bursts of sends flow through the simulator to `delivered`, and every
 * event reaches a local receiver through a webhook subscribed to `*` (one per customer), signed
 * and checked there. Measured: messages fully delivered per second (from the first send to the
 * last `message.delivered` webhook), signed webhooks received per second against a bare undici
 * POST loop to the same receiver, and the delivery backlog read from the database throughout.
 */
export async function endToEnd(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.endToEnd;
  const databasePath = join(context.workDir, 'end-to-end.db');
  const receiver = await WebhookReceiver.start();
  const server = await SwitchboardServer.start({
    databasePath,
    label: 'end-to-end',
    env: { WEBHOOK_CONCURRENCY: String(WEBHOOK_CONCURRENCY) },
    ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
  });
  let floor: LifecycleFloor | undefined;
  try {
    const tenants = await seedTenants(server.url, {
      customers: settings.customers,
      keysPerCustomer: 1,
    });
    for (const [index, tenant] of tenants.entries()) {
      const answer = await apiRequest(server.url, 'POST', '/v1/webhooks', {
        token: tenant.keys[0] ?? '',
        body: { url: `${receiver.url}/hooks/${index}`, events: ['*'], secret: RECEIVER_SECRET },
      });
      assertImplemented('POST /v1/webhooks', answer);
      if (answer.status !== 201) throw new UnexpectedAnswerError('POST /v1/webhooks', answer);
    }
    const keys = tenants.map((tenant) => tenant.keys[0] ?? '');
    // A first message end to end: the pipeline works, and its payload sizes the baseline's body.
    await probeSend(server.url, keys[0] ?? '');
    const probed = await waitUntil(
      async () => ((await receiver.stats()).byType['message.delivered'] ?? 0) >= 1,
      performance.now() + 15_000,
    );
    if (!probed)
      throw new Error('the first message never reached the receiver as message.delivered');
    const payload = sampleEventPayload(databasePath);
    const floorDatabasePath = join(context.workDir, 'end-to-end-floor.db');
    copyDatabase(databasePath, floorDatabasePath);
    floor = await LifecycleFloor.start({
      databasePath: floorDatabasePath,
      receiverUrl: receiver.url,
      secret: RECEIVER_SECRET,
      webhookConcurrency: WEBHOOK_CONCURRENCY,
      ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
    });
    await waitForCpuIdle(server.pid);

    const rounds: RoundFigures[] = [];
    const series: BacklogSample[][] = [];
    for (let index = 0; index < context.mode.rounds; index += 1) {
      await receiver.reset();
      const watch = new PeakRssWatch(server.pid);
      const sampler = new DeliveryBacklogSampler(databasePath);
      const cpuBefore = cpuSeconds(server.pid);
      const writtenBefore = bytesWritten(server.pid);
      const startedAt = Date.now();
      const burst = await sendBurst({
        url: server.url,
        keys,
        total: settings.messages,
        concurrency: settings.sendConcurrency,
        deadline: performance.now() + settings.sendWindowSec * 1000,
        runTag: `round-${index}`,
        behaviour: 'imessage-delivered',
      });
      const sendsDoneAt = performance.now();
      const { complete, stats } = await receiver.waitForMessages(
        burst.accepted,
        EVENTS_PER_MESSAGE,
        performance.now() + settings.drainLimitSec * 1000,
      );
      const drainSec = (performance.now() - sendsDoneAt) / 1000;
      const peakRss = watch.stop();

      // Every message's whole life is in this figure: the round's work is over once the server
      // is idle again (the idle check's own windows add at most a few ticks).
      await waitForCpuIdle(server.pid);
      // What is left once the server is idle: the last attempts' outcomes, received a moment
      // ago, are committed by then (the receiver hears an attempt before its record commits).
      const last = sampler.sample();
      sampler.stop();
      series.push(sampler.samples);
      const cpuUsed = cpuSeconds(server.pid) - cpuBefore;
      const writtenAfter = bytesWritten(server.pid);
      await receiver.reset();
      const baseline = await webhookPostLoop({
        url: receiver.url,
        path: '/hooks/baseline',
        total: settings.baselinePosts,
        concurrency: WEBHOOK_CONCURRENCY,
        body: payload,
        secret: RECEIVER_SECRET,
      });
      const floorFigures = await floorRound(floor, receiver, {
        keys,
        total: settings.messages,
        concurrency: settings.sendConcurrency,
        sendWindowSec: settings.sendWindowSec,
        drainLimitSec: settings.drainLimitSec,
        runTag: `floor-${index}`,
      });
      const deliveredAt = stats.lastAtByType['message.delivered'] ?? stats.lastAt;
      // The messages each per-message figure divides by.
      const delivered = Math.max(1, stats.byType['message.delivered'] ?? burst.accepted);
      const figures: RoundFigures = {
        accepted: burst.accepted,
        deliveredPerSec:
          ((stats.byType['message.delivered'] ?? 0) * 1000) / Math.max(1, deliveredAt - startedAt),
        webhooksPerSec: (stats.valid * 1000) / Math.max(1, stats.lastAt - stats.firstAt),
        baselinePerSec: baseline.perSec,
        webhooksReceived: stats.valid,
        invalidSignatures: stats.invalid,
        maxBacklog: Math.max(...sampler.samples.map((sample) => sample.pendingDeliveries)),
        finalBacklog: last.pendingDeliveries + last.retryingDeliveries,
        drainSec,
        complete,
        peakRss,
        cpuPerMessageUs: (cpuUsed * 1e6) / delivered,
        writtenPerMessage: perMessage(writtenBefore, writtenAfter, delivered),
        floor: floorFigures,
      };
      rounds.push(figures);
      context.log(
        `  round ${index + 1}: ${round(figures.deliveredPerSec, 0)} msgs/s delivered, ${round(figures.webhooksPerSec, 0)} webhooks/s vs bare ${round(figures.baselinePerSec, 0)}/s, backlog max ${figures.maxBacklog}, ${round(figures.cpuPerMessageUs, 0)} µs CPU per message${writtenText(figures.writtenPerMessage)}${complete ? '' : ' (INCOMPLETE)'}; floor ${round(floorFigures.deliveredPerSec, 0)} msgs/s, ${round(floorFigures.cpuPerMessageUs, 0)} µs CPU per message${writtenText(floorFigures.writtenPerMessage)}${floorFigures.complete ? '' : ' (INCOMPLETE)'}`,
      );
      await waitForCpuIdle(server.pid);
    }

    // The footprint of a real message with everything the server keeps for it: the row, its
    // attempt, its events and their webhook deliveries (the WAL folded in on shutdown).
    await server.stop();
    const footprint = databaseFootprint(databasePath);
    const ratio = median(rounds.map((r) => r.webhooksPerSec / r.baselinePerSec));
    const maxBacklog = Math.max(...rounds.map((r) => r.maxBacklog));
    const notes = [
      `${settings.customers} customers, each with one webhook subscribed to \`*\` on the same local receiver; up to ${settings.messages} sends per round from ${settings.sendConcurrency} concurrent clients (sending stops after ${settings.sendWindowSec} s; the round waits at most ${settings.drainLimitSec} s more for the deliveries), recipients the simulator delivers over iMessage (queued → sent → delivered: ${EVENTS_PER_MESSAGE} webhooks per message). WEBHOOK_CONCURRENCY=${WEBHOOK_CONCURRENCY}; the baseline loop uses as many concurrent clients.`,
      `Backlog = webhook deliveries in state \`pending\`, read from the database every 250 ms. Per-round series are in latest.json.`,
    ];
    notes.push(
      "Floor: the same burst, right after each round, sent to `bench/src/baselines/lifecycle-floor.ts` on a copy of the server's database: per message the rows the server writes for it (message, three events, three deliveries, their completions; no attempt rows), an API key look-up, group commits, three signed POSTs to the same receiver, and nothing else (no validation, no ORM, no status updates read back, no retries or leases). No server can do less on this data model; the ratios say how far above it Switchboard runs.",
    );
    if (process.env.BENCH_FLOOR_LEAVE_OUT) {
      notes.push(
        `The floor left out: ${process.env.BENCH_FLOOR_LEAVE_OUT} (BENCH_FLOOR_LEAVE_OUT).`,
      );
    }
    if (process.env.BENCH_FLOOR_WRITER === 'thread') {
      notes.push(
        'The floor wrote and committed on a thread of its own (BENCH_FLOOR_WRITER=thread).',
      );
    }
    if (rounds.some((r) => !r.complete || !r.floor.complete)) {
      notes.push(
        'A round did not finish delivering within its time bound: the figures are what arrived by then.',
      );
    }
    if (rounds.some((r) => r.invalidSignatures > 0)) {
      notes.push(`Invalid signatures: ${rounds.map((r) => r.invalidSignatures).join(', ')}.`);
    }
    return {
      id: 'end-to-end',
      title: 'End to end',
      status: 'ok',
      metrics: [
        metric(
          'messages fully delivered/s',
          round(median(rounds.map((r) => r.deliveredPerSec)), 0),
          'msg/s',
          { op: '>=', value: 2000 },
        ),
        metric(
          'signed webhooks received/s',
          round(median(rounds.map((r) => r.webhooksPerSec)), 0),
          'req/s',
        ),
        metric(
          'bare undici POST baseline',
          round(median(rounds.map((r) => r.baselinePerSec)), 0),
          'req/s',
        ),
        metric('webhook ratio to baseline', round(ratio, 3), '×', { op: '>=', value: 0.15 }),
        metric(
          'server CPU per fully delivered message (3 signed webhooks)',
          round(median(rounds.map((r) => r.cpuPerMessageUs)), 0),
          'µs',
          { op: '<=', value: 500 },
        ),
        metric(
          'drained after the last send (worst round)',
          round(Math.max(...rounds.map((r) => r.drainSec)), 1),
          's',
          { op: '<=', value: 2 },
        ),
        ...writtenMetric(rounds),
        metric(
          'floor: messages fully delivered/s (the same writes and webhooks, nothing else)',
          round(median(rounds.map((r) => r.floor.deliveredPerSec)), 0),
          'msg/s',
        ),
        metric(
          'floor: CPU per fully delivered message',
          round(median(rounds.map((r) => r.floor.cpuPerMessageUs)), 0),
          'µs',
        ),
        metric(
          'server CPU per message ÷ floor',
          round(median(rounds.map((r) => r.cpuPerMessageUs / r.floor.cpuPerMessageUs)), 2),
          '×',
        ),
        metric(
          'messages/s ÷ floor',
          round(median(rounds.map((r) => r.deliveredPerSec / r.floor.deliveredPerSec)), 3),
          '×',
        ),
        metric('max delivery backlog', maxBacklog, 'deliveries'),
        metric(
          'backlog left after each round',
          Math.max(...rounds.map((r) => r.finalBacklog)),
          'deliveries',
          {
            op: '<=',
            value: 0,
          },
        ),
        metric('server peak RSS', round(Math.max(...rounds.map((r) => r.peakRss)) / MB, 1), 'MB'),
        metric(
          'database size per delivered message, with events and deliveries',
          round(footprint.bytesPerMessage, 0),
          'bytes',
        ),
      ],
      details: [
        {
          title: 'Rounds',
          columns: [
            'round',
            'sends accepted',
            'delivered msgs/s',
            'webhooks/s',
            'bare POSTs/s',
            'ratio',
            'webhooks received',
            'max backlog',
            'drain after last send s',
            'peak RSS MB',
            'server CPU µs/message',
            'written KB/message',
            'floor msgs/s',
            'floor CPU µs/message',
            'floor written KB/message',
          ],
          rows: rounds.map((r, index) => [
            index + 1,
            r.accepted,
            round(r.deliveredPerSec, 0),
            round(r.webhooksPerSec, 0),
            round(r.baselinePerSec, 0),
            round(r.webhooksPerSec / r.baselinePerSec, 3),
            r.webhooksReceived,
            r.maxBacklog,
            round(r.drainSec, 1),
            round(r.peakRss / MB, 1),
            round(r.cpuPerMessageUs, 0),
            kilobytesCell(r.writtenPerMessage),
            round(r.floor.deliveredPerSec, 0),
            round(r.floor.cpuPerMessageUs, 0),
            kilobytesCell(r.floor.writtenPerMessage),
          ]),
        },
      ],
      notes,
      raw: { backlogSeries: series },
    };
  } finally {
    await floor?.stop();
    await server.stop();
    await receiver.stop();
  }
}

/** Copies a live WAL database, folded into one file (`VACUUM INTO`), for the floor to start from. */
function copyDatabase(from: string, to: string): void {
  const db = new Database(from, { readonly: true });
  try {
    db.prepare('vacuum into ?').run(to);
  } finally {
    db.close();
  }
}

/**
 * Sends a round's burst through the floor and waits until the receiver has every message's three
 * webhooks (the receiver is reset first): the floor's messages/s and CPU per message.
 */
async function floorRound(
  floor: LifecycleFloor | undefined,
  receiver: WebhookReceiver,
  options: {
    keys: readonly string[];
    total: number;
    concurrency: number;
    sendWindowSec: number;
    drainLimitSec: number;
    runTag: string;
  },
): Promise<FloorFigures> {
  if (!floor) throw new Error('the floor is not running');
  await receiver.reset();
  await waitForCpuIdle(floor.pid);
  const cpuBefore = cpuSeconds(floor.pid);
  const writtenBefore = bytesWritten(floor.pid);
  const startedAt = Date.now();
  const burst = await sendBurst({
    url: floor.url,
    keys: options.keys,
    total: options.total,
    concurrency: options.concurrency,
    deadline: performance.now() + options.sendWindowSec * 1000,
    runTag: options.runTag,
    behaviour: 'imessage-delivered',
  }).catch((error: unknown) => {
    throw new Error(`the floor failed: ${String(error)}\n${floor.outputTail}`);
  });
  const { complete, stats } = await receiver.waitForMessages(
    burst.accepted,
    EVENTS_PER_MESSAGE,
    performance.now() + options.drainLimitSec * 1000,
  );
  await waitForCpuIdle(floor.pid);
  const delivered = Math.max(1, stats.byType['message.delivered'] ?? burst.accepted);
  const deliveredAt = stats.lastAtByType['message.delivered'] ?? stats.lastAt;
  const writtenAfter = bytesWritten(floor.pid);
  await receiver.reset();
  return {
    deliveredPerSec: (delivered * 1000) / Math.max(1, deliveredAt - startedAt),
    cpuPerMessageUs: ((cpuSeconds(floor.pid) - cpuBefore) * 1e6) / delivered,
    writtenPerMessage: perMessage(writtenBefore, writtenAfter, delivered),
    complete,
  };
}

/** Bytes a process wrote between two readings of its counter, per message; undefined if unknown. */
function perMessage(
  before: number | undefined,
  after: number | undefined,
  messages: number,
): number | undefined {
  return before === undefined || after === undefined ? undefined : (after - before) / messages;
}

/** A table cell in KB (one decimal), empty when the figure is not known. */
function kilobytesCell(bytes: number | undefined): number | '' {
  return bytes === undefined ? '' : round(bytes / 1024, 1);
}

/** `, 97.3 KB written per message` for a round's log line, or nothing when it is not known. */
function writtenText(bytesPerMessage: number | undefined): string {
  return bytesPerMessage === undefined
    ? ''
    : `, ${round(bytesPerMessage / 1024, 1)} KB written per message`;
}

/** Bytes written to storage per delivered message (median of the rounds), where it is known. */
function writtenMetric(rounds: readonly RoundFigures[]): ReturnType<typeof metric>[] {
  const known = rounds.flatMap((r) =>
    r.writtenPerMessage === undefined ? [] : [r.writtenPerMessage],
  );
  if (known.length === 0) return [];
  return [
    metric(
      'bytes written to storage per delivered message (WAL and checkpoints)',
      round(median(known) / 1024, 1),
      'KB',
    ),
  ];
}

/** Database file size per message, from a closed database file. */
function databaseFootprint(databasePath: string): { bytesPerMessage: number } {
  const db = new Database(databasePath, { readonly: true });
  try {
    const pageCount = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const messages = db.prepare('select count(*) from messages').pluck().get() as number;
    return { bytesPerMessage: (pageCount * pageSize) / Math.max(1, messages) };
  } finally {
    db.close();
  }
}
