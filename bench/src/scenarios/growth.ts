import type { MessageList } from '@switchboard/contract';
import { apiData, apiRequest, assertImplemented } from '../api/api-client';
import type { ScenarioContext } from '../bench-mode';
import { type HttpLoadResult, runHttpLoad } from '../load/http-load';
import { cpuSeconds, waitForCpuIdle } from '../process/cpu-idle';
import { SwitchboardServer } from '../process/switchboard-server';
import type { ClonedDatabase } from '../seed/message-cloner';
import { median, round } from '../stats/summary';
import { type DetailTable, metric, type ScenarioOutcome } from './scenario-result';

/** A read the growth scenario times, as a function of the database it runs against. */
interface GrowthQuery {
  name: string;
  /** The path of the next request. */
  paths: (database: PreparedDatabase) => () => string;
}

/** One timed read run, with the server CPU it cost per answer. */
interface ReadRun extends HttpLoadResult {
  /** Server CPU (user + system) per 2xx answer, in microseconds. */
  cpuPerRequestUs: number;
}

/** A database with a server on it and what the queries need from it. */
interface PreparedDatabase {
  database: ClonedDatabase;
  server: SwitchboardServer;
  key: string;
  /** A cursor from the API pointing at the middle of the list. */
  deepCursor: string;
}

const QUERIES: readonly GrowthQuery[] = [
  { name: 'list, first page', paths: () => () => '/v1/messages?limit=50' },
  { name: 'list, status=read', paths: () => () => '/v1/messages?status=read&limit=50' },
  {
    name: 'list, to=<recipient>',
    paths: (db) => () =>
      `/v1/messages?to=${encodeURIComponent(db.database.busyRecipient)}&limit=50`,
  },
  {
    name: 'list, deep cursor (middle)',
    paths: (db) => () => `/v1/messages?limit=50&cursor=${db.deepCursor}`,
  },
  {
    name: 'list, status=read + deep cursor',
    paths: (db) => () => `/v1/messages?status=read&limit=50&cursor=${db.deepCursor}`,
  },
  {
    name: 'get by id (random)',
    paths: (db) => {
      const ids = db.database.sampleIds;
      let next = 0;
      return () => {
        // A stride through the sample, so consecutive reads hit different parts of the table.
        next = (next + 7919) % ids.length;
        return `/v1/messages/${ids[next] ?? ''}`;
      };
    },
  },
];

async function prepare(
  database: ClonedDatabase,
  key: string,
  context: ScenarioContext,
  label: string,
): Promise<PreparedDatabase> {
  const server = await SwitchboardServer.start({
    databasePath: database.path,
    label,
    ...(context.profileDir ? { cpuProfileDir: context.profileDir } : {}),
  });
  try {
    const first = await apiRequest(server.url, 'GET', '/v1/messages?limit=1', { token: key });
    assertImplemented('GET /v1/messages', first);
    // The two marker messages sit in the middle of the table: the cursor after the first of them
    // points half-way down the list, as deep as a client paging from the top would get there.
    const marker = await apiData<MessageList>(
      server.url,
      'GET',
      `/v1/messages?to=${encodeURIComponent(database.markerRecipient)}&limit=1`,
      { token: key, expectedStatus: 200 },
    );
    const deepCursor = marker.pagination.nextCursor;
    if (!deepCursor) throw new Error('the marker messages gave no cursor');
    return { database, server, key, deepCursor };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * Scenario 4, growth: the same reads against a database of `largeRows` messages and one of
 * `smallRows` (the baseline), both cloned from rows the real server wrote; the p99 of each read
 * on the large database should stay within 2× of the small one (index range scans, not scans).
 */
export async function growth(context: ScenarioContext): Promise<ScenarioOutcome> {
  const settings = context.mode.growth;
  const template = await context.fixtures.template();
  const small = await context.fixtures.database(settings.smallRows);
  const large = await context.fixtures.database(settings.largeRows);
  context.log(
    `  seeded ${settings.largeRows} messages in ${round(large.seedSec, 1)} s (${round(large.fileBytes / 1024 ** 2, 0)} MB)`,
  );
  const smallDb = await prepare(small, template.key, context, 'growth-small');
  let largeDb: PreparedDatabase | undefined;
  try {
    largeDb = await prepare(large, template.key, context, 'growth-large');
    const measure = async (db: PreparedDatabase, query: GrowthQuery): Promise<ReadRun> => {
      const nextPath = query.paths(db);
      const cpuBefore = cpuSeconds(db.server.pid);
      const result = await runHttpLoad({
        url: db.server.url,
        method: 'GET',
        connections: settings.connections,
        durationSec: settings.durationSec,
        nextRequest: () => ({ path: nextPath(), headers: { authorization: `Bearer ${db.key}` } }),
      });
      const cpuUsed = cpuSeconds(db.server.pid) - cpuBefore;
      return { ...result, cpuPerRequestUs: (cpuUsed * 1e6) / Math.max(1, result.ok) };
    };
    const results = new Map<string, Array<{ small: ReadRun; large: ReadRun }>>();
    for (let index = 0; index < context.mode.rounds; index += 1) {
      for (const query of QUERIES) {
        const smallResult = await measure(smallDb, query);
        const largeResult = await measure(largeDb, query);
        results.set(query.name, [
          ...(results.get(query.name) ?? []),
          { small: smallResult, large: largeResult },
        ]);
        await waitForCpuIdle(largeDb.server.pid, { timeoutMs: 5_000 });
      }
      context.log(`  round ${index + 1} done`);
    }

    const rows: DetailTable['rows'] = [];
    const ratios: number[] = [];
    const largeCpu: number[] = [];
    let failures = 0;
    for (const query of QUERIES) {
      const runs = results.get(query.name) ?? [];
      const ratio = median(runs.map((r) => r.large.latency.p99 / r.small.latency.p99));
      ratios.push(ratio);
      largeCpu.push(median(runs.map((r) => r.large.cpuPerRequestUs)));
      failures += runs.reduce(
        (sum, r) =>
          sum +
          r.small.errors +
          r.large.errors +
          Object.values(r.small.otherStatuses).reduce((a, b) => a + b, 0) +
          Object.values(r.large.otherStatuses).reduce((a, b) => a + b, 0),
        0,
      );
      rows.push([
        query.name,
        round(median(runs.map((r) => r.small.okPerSec)), 0),
        round(median(runs.map((r) => r.small.latency.p50))),
        round(median(runs.map((r) => r.small.latency.p99))),
        round(median(runs.map((r) => r.small.cpuPerRequestUs)), 0),
        round(median(runs.map((r) => r.large.okPerSec)), 0),
        round(median(runs.map((r) => r.large.latency.p50))),
        round(median(runs.map((r) => r.large.latency.p99))),
        round(median(runs.map((r) => r.large.cpuPerRequestUs)), 0),
        round(ratio),
        ratio <= 2 ? 'met' : '**missed**',
      ]);
    }
    const bytesPerMessage = (large.fileBytes - small.fileBytes) / (large.messages - small.messages);
    const notes = [
      `Both databases hold one customer's messages, cloned from the rows the real server wrote for one real send per simulator behaviour (70 % delivered over iMessage, 15 % read, 10 % SMS after a fallback, 5 % failed), one second apart, each with its delivery attempt; \`to\` spreads over 200 recipients per behaviour, except one recipient that gets 100 messages spread evenly over the table in both databases (the \`to=\` read: the same 50-row page at both sizes). Seeding ${large.messages} rows took ${round(large.seedSec, 1)} s.`,
      `${settings.connections} connections, ${settings.durationSec} s per query and database, the small and the large database alternating; p99 ratio = large / small (median of rounds). Server CPU per read = the server process's user + system CPU over the run (from \`/proc\`) divided by its 2xx answers.`,
      'The deep cursor comes from the API: `GET /v1/messages?to=<marker>&limit=1` on two marker messages placed half-way down the table.',
      'Database size per message counts the message row, its delivery attempt and their indexes (indexes rebuilt in bulk after seeding, so slightly denser than after months of inserts); events and webhook deliveries come on top (see the end-to-end scenario for a real server-written figure).',
    ];
    if (failures > 0) notes.push(`Non-2xx answers or errors during the reads: ${failures}.`);
    return {
      id: 'growth',
      title: 'Growth',
      status: 'ok',
      metrics: [
        metric('messages (large / small)', large.messages, `/ ${small.messages}`),
        metric('worst p99 ratio large / small', round(Math.max(...ratios)), '×', {
          op: '<=',
          value: 2,
        }),
        metric(
          `server CPU per read, costliest read on ${large.messages} messages`,
          round(Math.max(...largeCpu), 0),
          'µs',
        ),
        metric('database size per message', round(bytesPerMessage, 0), 'bytes'),
        metric('database file (large)', round(large.fileBytes / 1024 ** 2, 0), 'MB'),
      ],
      details: [
        {
          title: 'Reads',
          columns: [
            'read',
            `req/s (${small.messages})`,
            'p50 ms',
            'p99 ms',
            'server CPU µs/req',
            `req/s (${large.messages})`,
            'p50 ms',
            'p99 ms',
            'server CPU µs/req',
            'p99 ratio',
            '≤ 2×',
          ],
          rows,
        },
      ],
      notes,
    };
  } finally {
    await largeDb?.server.stop();
    await smallDb.server.stop();
  }
}
