import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Message } from '@switchboard/contract';
import { startLoopbackReceiver } from '@switchboard/testing';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { completion, listeningPort, runEntry, spawnEntry } from '../support/child-process';
import { tempDir } from '../support/test-app';

/** Recipients of several simulator rows, with the status each ends in. */
const RECIPIENTS: [string, Message['status']][] = [
  ['+14155550103', 'read'],
  ['+14155550116', 'delivered'],
  ['+14155550137', 'failed'],
  ['+447700900555', 'delivered'],
];
const SENDS = 240;
const KILLS = 4;
const WEBHOOK_CONCURRENCY = 8;

/** A small seeded generator, so a failing run can be replayed from the seed it prints. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('kill -9 while sends and webhook deliveries are in flight', () => {
  it('loses no message and no webhook event over repeated kills, sends none twice, and counts duplicates', async () => {
    const seed = Number(process.env.KILL_TEST_SEED ?? Date.now() % 1_000_000);
    const next = random(seed);
    const dir = tempDir();
    const env = {
      DATABASE_URL: join(dir, 'switchboard.db'),
      PORT: '0',
      HOST: '127.0.0.1',
      SIMULATOR_STEP_MS: '20',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // info: the test reads the "Server listening" line.
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,2s,5s,5s,10s',
      WEBHOOK_CONCURRENCY: String(WEBHOOK_CONCURRENCY),
    };
    const receiver = await startLoopbackReceiver((_request, response) => {
      // A receiver that takes a moment, so deliveries are in flight when the process dies.
      setTimeout(() => response.writeHead(200).end(), 5);
    });
    onTestFinished(() => receiver.close());

    const seeded = await runEntry('src/cli.ts', ['--create-database', 'quickstart', '--json'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    const key = (JSON.parse(seeded.stdout) as { apiKey: { key: string } }).apiKey.key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    let server: ChildProcess | undefined;
    const start = async () => {
      server = spawnEntry('src/main.ts', [], env);
      const done = completion(server);
      const port = await listeningPort(server);
      return { base: `http://127.0.0.1:${port}`, done };
    };
    onTestFinished(() => {
      server?.kill('SIGKILL');
    });

    let { base, done } = await start();
    const hook = await fetch(`${base}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${receiver.origin}/events`, events: ['*'] }),
    });
    expect(hook.status).toBe(201);

    // Sends with idempotency keys, from eight clients; a send whose answer was lost with the
    // process is sent again (same key) after the restart, as a client would.
    const accepted = new Map<number, string>();
    const unsettled = new Set(Array.from({ length: SENDS }, (_, index) => index));
    const sendAll = async (killAt: number | undefined) => {
      const queue = [...unsettled];
      let killed = false;
      const client = async () => {
        for (let index = queue.shift(); index !== undefined && !killed; index = queue.shift()) {
          const [to] = RECIPIENTS[index % RECIPIENTS.length] ?? [];
          try {
            const response = await fetch(`${base}/v1/messages`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                to,
                content: { text: `kill ${index}` },
                idempotencyKey: `k-${index}`,
              }),
            });
            if (response.status === 202 || response.status === 200) {
              accepted.set(index, ((await response.json()) as { data: { id: string } }).data.id);
              unsettled.delete(index);
            }
          } catch {
            // The process died under this request: its outcome is unknown until it is re-sent.
          }
          if (!killed && killAt !== undefined && accepted.size >= killAt) {
            killed = true;
            server?.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, client));
    };

    // KILLS rounds, each killed at a random moment of its share of the sends, then one that ends.
    for (let round = 0; round < KILLS; round += 1) {
      const share = Math.ceil(SENDS / (KILLS + 1));
      const killAt = accepted.size + 1 + Math.floor(next() * share);
      await sendAll(killAt);
      // Some of the burst is always still in flight at the kill (lifecycles take 20 ms steps).
      await done;
      ({ base, done } = await start());
      // A random pause before the next burst: recovery runs into sends, or finishes first.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 300)));
    }
    await sendAll(undefined);
    expect(unsettled.size).toBe(0);
    expect(accepted.size).toBe(SENDS);

    // Every accepted message reaches its row's final status, sent at most once per attempt.
    const get = async (id: string) =>
      ((await (await fetch(`${base}/v1/messages/${id}`, { headers })).json()) as { data: Message })
        .data;
    const deadline = Date.now() + 30_000;
    for (const [index, id] of accepted) {
      const [, final] = RECIPIENTS[index % RECIPIENTS.length] ?? [];
      let message = await get(id);
      while (message.status !== final && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        message = await get(id);
      }
      expect(message.status, `seed ${seed}: ${id} ${JSON.stringify(message.timeline)}`).toBe(final);
      const statuses = message.timeline.map((entry) => entry.status);
      expect(statuses.filter((status) => status === 'queued')).toHaveLength(1);
      expect(statuses.filter((status) => status === 'sent').length).toBeLessThanOrEqual(1);
    }

    // Every event the server recorded for the customer reaches the receiver (the event stream's
    // own `whatsapp.status` aside), at least once.
    const database = new Database(env.DATABASE_URL, { readonly: true });
    const recorded = (
      database.prepare("select id from events where type <> 'whatsapp.status'").all() as {
        id: string;
      }[]
    ).map((row) => row.id);
    database.close();
    const receivedIds = () =>
      receiver.requests.map((request) => String(request.headers['x-event-id']));
    const eventDeadline = Date.now() + 30_000;
    let missing = recorded.filter((id) => !receivedIds().includes(id));
    while (missing.length > 0 && Date.now() < eventDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const seen = new Set(receivedIds());
      missing = recorded.filter((id) => !seen.has(id));
    }
    expect(missing, `seed ${seed}: events never delivered`).toEqual([]);

    // At least once: a delivery the receiver took while the process died is made again. Each
    // kill can repeat at most the attempts in flight then (the concurrency).
    const counts = new Map<string, number>();
    for (const id of receivedIds()) counts.set(id, (counts.get(id) ?? 0) + 1);
    const duplicates = [...counts.values()].reduce((sum, n) => sum + (n - 1), 0);
    console.info(
      `kill -9 test (seed ${seed}): ${accepted.size} messages, ${recorded.length} events, ${KILLS} kills, ${duplicates} duplicate deliveries`,
    );
    expect(duplicates).toBeLessThanOrEqual(KILLS * WEBHOOK_CONCURRENCY);
    for (const id of counts.keys()) expect(recorded).toContain(id);

    server?.kill('SIGTERM');
    await done;
  }, 150_000);
});
