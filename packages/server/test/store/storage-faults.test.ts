import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  buildMessagingApp,
  FINAL_STATUSES,
  type MessagingApp,
} from '../messages/messaging-fixture';
import { PACKAGE_ROOT } from '../support/child-process';
import { bodyOf, tempDir } from '../support/test-app';

// These faults need root: chattr +i (a file that refuses writes, even through open descriptors)
// and a size-limited tmpfs (a full disk). CI runs as root on the same kind of machine; without
// root these tests fail rather than skip.

type Failure = { error: { code: string; message: string } };

const FAST = { SQLITE_BUSY_TIMEOUT_MS: '100' };

/** Sends to a contact the simulator delivers to (over sms); answers the raw response. */
function send(app: MessagingApp, text: string) {
  return app.send({ to: '+14155550123', content: { text } });
}

/** Every message the app accepted reaches a final status, and the database is intact. */
async function expectNothingLost(app: MessagingApp, accepted: readonly string[]): Promise<void> {
  for (const id of accepted) {
    const message = await app.waitFor(id, (m) => FINAL_STATUSES.includes(m.status), 10_000);
    expect(message.status, id).toBe('delivered');
  }
  const listed = bodyOf<{ data: { messages: Array<{ id: string }> } }>(
    await app.request('GET', '/v1/messages?limit=100'),
  ).data.messages;
  expect(listed.map((m) => m.id).sort()).toEqual([...accepted].sort());
  const check = new Database(app.databasePath, { readonly: true });
  try {
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    check.close();
  }
}

function expectUnavailable(
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
  cause: RegExp,
) {
  expect(response.statusCode, response.body).toBe(503);
  const { error } = bodyOf<Failure>(response as never);
  expect(error.code).toBe('SERVICE_UNAVAILABLE');
  expect(error.message).toMatch(cause);
  expect(response.headers['retry-after']).toBe('5');
}

/** Another process that holds the write lock of the database until it is told to let go. */
async function holdWriteLock(path: string): Promise<ChildProcess> {
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('better-sqlite3'))(${JSON.stringify(path)});
       db.exec('BEGIN EXCLUSIVE');
       process.stdout.write('locked\\n');
       process.stdin.on('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`,
    ],
    { cwd: PACKAGE_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    holder.stdout?.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return holder;
}

describe('storage faults', () => {
  it('answers 503 while another process holds the database lock, and recovers when it lets go', async () => {
    const app = await buildMessagingApp({ env: FAST, store: 'sqlite' });
    const accepted = [await app.sendOk({ to: '+14155550123', content: { text: 'before' } })];
    await app.waitForStatus(accepted[0] ?? '', 'delivered');

    const holder = await holdWriteLock(app.databasePath);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    try {
      expectUnavailable(await send(app, 'during'), /another process holds a lock/);
      // Reads go on: the WAL lets readers past a writer's lock.
      expect((await app.request('GET', `/v1/messages/${accepted[0]}`)).statusCode).toBe(200);
    } finally {
      holder.stdin?.write('go\n');
      await exited;
    }
    const after = await send(app, 'after');
    expect(after.statusCode).toBe(202);
    accepted.push(bodyOf<{ data: { id: string } }>(after).data.id);
    await expectNothingLost(app, accepted);
  });

  it('answers 503 while the database file refuses writes, and recovers when it takes them again', async () => {
    const app = await buildMessagingApp({ env: FAST, store: 'sqlite' });
    const accepted = [await app.sendOk({ to: '+14155550123', content: { text: 'before' } })];
    await app.waitForStatus(accepted[0] ?? '', 'delivered');
    const files = [app.databasePath, `${app.databasePath}-wal`].filter((file) => existsSync(file));
    const writable = (on: boolean) => execFileSync('chattr', [on ? '-i' : '+i', ...files]);
    writable(false);
    onTestFinished(() => {
      writable(true);
    });
    try {
      const refused = await send(app, 'during');
      expectUnavailable(refused, /(read-only|refused a read or write)/);
      expect((await app.request('GET', `/v1/messages/${accepted[0]}`)).statusCode).toBe(200);
    } finally {
      writable(true);
    }
    const after = await send(app, 'after');
    expect(after.statusCode, after.body).toBe(202);
    accepted.push(bodyOf<{ data: { id: string } }>(after).data.id);
    await expectNothingLost(app, accepted);
  });

  it('answers 503 when the disk is full, loses nothing it accepted, and recovers when space returns', async () => {
    const mount = join(tempDir(), 'small-disk');
    mkdirSync(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
    onTestFinished(() => {
      execFileSync('umount', ['-l', mount]);
    });
    const app = await buildMessagingApp({ env: FAST, dir: mount, store: 'sqlite' });
    const accepted: string[] = [];
    // Fill what the database left free but 2 MiB, then send until the disk is full. 2 MiB is
    // twenty to thirty sends here; 256 KiB was four, and on CI's loaded SQLite leg even the first
    // send found the disk full.
    const filler = join(mount, 'filler');
    const free = Number(
      execFileSync('df', ['--output=avail', '-B1', mount]).toString().split('\n')[1],
    );
    writeFileSync(filler, Buffer.alloc(Math.max(0, free - 2 * 1024 * 1024)));
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let index = 0; index < 2000 && refused === undefined; index += 1) {
      const response = await send(app, `fill ${index} ${'x'.repeat(1500)}`);
      if (response.statusCode === 202)
        accepted.push(bodyOf<{ data: { id: string } }>(response).data.id);
      else refused = response;
    }
    expect(refused, 'the disk never filled').toBeDefined();
    expectUnavailable(refused as never, /disk is full|refused a read or write/);
    expect(accepted.length).toBeGreaterThan(0);

    rmSync(filler);
    const after = await send(app, 'after');
    expect(after.statusCode, after.body).toBe(202);
    accepted.push(bodyOf<{ data: { id: string } }>(after).data.id);
    await expectNothingLost(app, accepted);
  });
});
