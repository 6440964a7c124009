import { join } from 'node:path';
import type { Message, MessageList } from '@switchboard/contract';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { completion, listeningPort, runEntry, spawnEntry } from '../support/child-process';
import { tempDir } from '../support/test-app';
import { buildMessagingApp, reopenMessagingApp, timelineOf } from './messaging-fixture';
import { recordingRegistry } from './recording-providers';

/** Recipients from several rows of the simulator table, and the status each ends in. */
const RECIPIENTS: [string, Message['status']][] = [
  ['+14155550103', 'read'],
  ['+14155550116', 'delivered'],
  ['+14155550126', 'delivered'],
  ['+14155550137', 'failed'],
  ['+447700900555', 'delivered'],
];

const BURST = 160;
const KILL_AFTER_ACCEPTED = 60;

describe('crash recovery', () => {
  it('loses no accepted message and duplicates none when the server is killed mid-burst', async () => {
    const dir = tempDir();
    const env = {
      DATABASE_URL: join(dir, 'switchboard.db'),
      PORT: '0',
      HOST: '127.0.0.1',
      // Lifecycles take a few steps: messages are in every state when the process dies.
      SIMULATOR_STEP_MS: '25',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'info',
    };
    const seeded = await runEntry('src/cli.ts', ['--create-database', 'quickstart', '--json'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    const key = (JSON.parse(seeded.stdout) as { apiKey: { key: string } }).apiKey.key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    const first = spawnEntry('src/main.ts', [], env);
    const firstDone = completion(first);
    const firstPort = await listeningPort(first);

    // The burst: ten senders in parallel; the process is killed once enough sends were accepted,
    // while others are still in flight.
    const accepted = new Map<number, string>();
    let next = 0;
    let killed = false;
    const sender = async () => {
      while (next < BURST && !killed) {
        const index = next++;
        const [to] = RECIPIENTS[index % RECIPIENTS.length] ?? [];
        try {
          const response = await fetch(`http://127.0.0.1:${firstPort}/v1/messages`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              to,
              content: { text: `crash test ${index}` },
              idempotencyKey: `crash-${index}`,
            }),
          });
          if (response.status === 202) {
            accepted.set(index, ((await response.json()) as { data: { id: string } }).data.id);
          }
        } catch {
          // The connection died with the process: this send's outcome is unknown.
        }
        if (!killed && accepted.size >= KILL_AFTER_ACCEPTED) {
          killed = true;
          first.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 10 }, sender));
    const exit = await firstDone;
    expect(exit.code).toBeNull();
    expect(accepted.size).toBeGreaterThanOrEqual(KILL_AFTER_ACCEPTED);
    // The kill really came mid-flight: some accepted messages were still on their way.
    const database = new Database(env.DATABASE_URL, { readonly: true });
    const statusAtKill = database.prepare('select status from messages where id = ?');
    const unfinished = [...accepted.values()].filter((id) => {
      const row = statusAtKill.get(id) as { status: string } | undefined;
      return row !== undefined && ['queued', 'pending', 'sent'].includes(row.status);
    });
    database.close();
    expect(unfinished.length).toBeGreaterThan(0);

    const second = spawnEntry('src/main.ts', [], env);
    const secondDone = completion(second);
    try {
      const port = await listeningPort(second);
      const base = `http://127.0.0.1:${port}`;
      const get = async (id: string) => {
        const response = await fetch(`${base}/v1/messages/${id}`, { headers });
        expect(response.status, id).toBe(200);
        return ((await response.json()) as { data: Message }).data;
      };

      // Every accepted message exists and reaches the final status of its recipient's row.
      const deadline = Date.now() + 20_000;
      for (const [index, id] of accepted) {
        const [, final] = RECIPIENTS[index % RECIPIENTS.length] ?? [];
        let message = await get(id);
        while (message.status !== final && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          message = await get(id);
        }
        expect(message.status, `${id} (${message.to}): ${JSON.stringify(message.timeline)}`).toBe(
          final,
        );
        expect(message.content.text).toBe(`crash test ${index}`);
        const statuses = message.timeline.map((entry) => entry.status);
        expect(statuses.filter((status) => status === 'queued')).toHaveLength(1);
        expect(statuses.filter((status) => status === 'sent').length).toBeLessThanOrEqual(1);
      }

      // Exactly once: no text appears twice among all stored messages, and a repeated key
      // answers the message the first send created.
      const texts: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `${base}/v1/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
        const page: MessageList = (
          (await (await fetch(url, { headers })).json()) as { data: MessageList }
        ).data;
        texts.push(...page.messages.map((message) => message.content.text));
        cursor = page.pagination.nextCursor;
      } while (cursor);
      expect(new Set(texts).size).toBe(texts.length);
      for (const index of accepted.keys()) expect(texts).toContain(`crash test ${index}`);
      const [someIndex, someId] = [...accepted][0] ?? [];
      const repeat = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          to: '+14155550103',
          content: { text: 'again' },
          idempotencyKey: `crash-${someIndex}`,
        }),
      });
      expect(repeat.status).toBe(200);
      expect(((await repeat.json()) as { data: Message }).data.id).toBe(someId);
    } finally {
      second.kill('SIGTERM');
      await secondDone;
    }
  }, 60_000);
});

/**
 * Puts a message in the state a crash leaves behind: `pending`, its attempt on iMessage recorded,
 * with or without the provider's id.
 */
function leavePending(databasePath: string, id: string, externalId: string | null): void {
  const database = new Database(databasePath);
  const row = database
    .prepare('select customer_id, instance_id, created_at from messages where id = ?')
    .get(id) as { customer_id: string; instance_id: string; created_at: number };
  database
    .prepare(
      "update messages set status = 'pending', channel = 'imessage', scheduled_at = null, external_id = ?, timeline = ? where id = ?",
    )
    .run(externalId, JSON.stringify([{ status: 'queued', at: row.created_at, channel: null }]), id);
  database
    .prepare(
      'insert into message_attempts (attempt_id, message_id, customer_id, instance_id, attempt, channel, external_id, created_at) values (?, ?, ?, ?, 0, ?, ?, ?)',
    )
    .run(
      `${id}:0:imessage`,
      id,
      row.customer_id,
      row.instance_id,
      'imessage',
      externalId,
      row.created_at,
    );
  database.close();
}

describe('start-up recovery of interrupted sends', () => {
  it('resends an attempt the provider never answered, with the same attempt id', async () => {
    const dir = tempDir();
    const first = await buildMessagingApp({ dir, store: 'sqlite' });
    const scheduledAt = new Date(first.clock.now() + 3_600_000).toISOString();
    const id = await first.sendOk({ to: '+14155550104', content: { text: 'hi' }, scheduledAt });
    await first.close();
    leavePending(first.databasePath, id, null);

    const { registry, calls } = recordingRegistry();
    const second = await reopenMessagingApp(first, { overrides: { providerRegistry: registry } });
    const message = await second.waitForStatus(id, 'read');
    expect(calls.sends.map((send) => send.attemptId)).toEqual([`${id}:0:imessage`]);
    expect(timelineOf(message)).toEqual([
      'queued:-',
      'sent:imessage',
      'delivered:imessage',
      'read:imessage',
    ]);
  });

  it('asks the provider where an accepted attempt stands instead of sending it again', async () => {
    const dir = tempDir();
    const first = await buildMessagingApp({ dir, store: 'sqlite' });
    const scheduledAt = new Date(first.clock.now() + 3_600_000).toISOString();
    const id = await first.sendOk({ to: '+14155550104', content: { text: 'hi' }, scheduledAt });
    await first.close();
    leavePending(first.databasePath, id, 'BEFORE-THE-CRASH');

    const { registry, calls } = recordingRegistry();
    const second = await reopenMessagingApp(first, { overrides: { providerRegistry: registry } });
    const message = await second.waitForStatus(id, 'read');
    expect(calls.sends).toEqual([]);
    expect(message.externalId).toBe('BEFORE-THE-CRASH');
    // Recovery ran while the app started, before any subscriber: read the event log itself.
    const database = new Database(first.databasePath, { readonly: true });
    const types = database
      .prepare('select type from events where message_id = ? order by rowid')
      .all(id)
      .map((row) => (row as { type: string }).type);
    database.close();
    expect(types).toEqual([
      'message.scheduled',
      'message.sent',
      'message.delivered',
      'message.read',
    ]);
  });
});
