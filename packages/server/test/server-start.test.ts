import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completion, listeningPort, spawnEntry } from './support/child-process';
import { ADMIN_TOKEN, tempDir } from './support/test-app';

const env = (databasePath: string, extra: Record<string, string> = {}) => ({
  PORT: '0',
  DATABASE_URL: databasePath,
  SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
  ...extra,
});

describe('starting the server', () => {
  it('refuses a second server on the same SQLite file with one line, and a dead one’s lock is free', async () => {
    const databasePath = join(tempDir(), 'switchboard.db');
    const first = spawnEntry('src/main.ts', [], env(databasePath));
    const firstDone = completion(first);
    await listeningPort(first);
    expect(existsSync(`${databasePath}.lock`)).toBe(true);

    const second = await completion(spawnEntry('src/main.ts', [], env(databasePath)));
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Switchboard could not start: another Switchboard server \(pid \d+\) is using .*switchboard\.db: stop it, or set DATABASE_URL/,
      ),
    ]);

    // kill -9 leaves the lock behind: the next server takes it over.
    first.kill('SIGKILL');
    await firstDone;
    expect(existsSync(`${databasePath}.lock`)).toBe(true);
    const third = spawnEntry('src/main.ts', [], env(databasePath));
    const thirdDone = completion(third);
    await listeningPort(third);
    third.kill('SIGTERM');
    expect((await thirdDone).code).toBe(0);
    // A clean shutdown gives the lock back.
    expect(existsSync(`${databasePath}.lock`)).toBe(false);
  });

  it('lets exactly one of two servers started at the same instant on a killed server’s lock run', async () => {
    const databasePath = join(tempDir(), 'switchboard.db');
    const killed = spawnEntry('src/main.ts', [], env(databasePath));
    const killedDone = completion(killed);
    await listeningPort(killed);
    killed.kill('SIGKILL');
    await killedDone;
    // The killed server's files are all still there: its pid, and the file it held the lock on.
    expect(existsSync(`${databasePath}.lock`)).toBe(true);
    expect(existsSync(`${databasePath}.lock.sqlite`)).toBe(true);

    const pair = [
      spawnEntry('src/main.ts', [], env(databasePath)),
      spawnEntry('src/main.ts', [], env(databasePath)),
    ];
    const done = pair.map((child) => completion(child));
    // Taken at once: the loser's wait for its port fails when it exits, before the race below ends.
    const first = Promise.any(pair.map((child) => listeningPort(child).then(() => child)));
    // The loser exits at once; the winner listens.
    const loser = await Promise.race(done);
    expect(loser.code).toBe(1);
    expect(loser.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Switchboard could not start: another Switchboard server( \(pid \d+\))? is using .*switchboard\.db: stop it, or set DATABASE_URL/,
      ),
    ]);
    const winner = await first;
    expect(Number(readFileSync(`${databasePath}.lock`, 'utf8'))).toBe(winner.pid);
    // The winner's lock dies with it: kill -9, and the next server runs.
    winner.kill('SIGKILL');
    await Promise.all(done);
    const next = spawnEntry('src/main.ts', [], env(databasePath));
    const nextDone = completion(next);
    await listeningPort(next);
    next.kill('SIGTERM');
    expect((await nextDone).code).toBe(0);
  });

  it('starts on a first run, creating the folder of its database', async () => {
    const databasePath = join(tempDir(), 'data', 'switchboard.db');
    const server = spawnEntry('src/main.ts', [], env(databasePath));
    const done = completion(server);
    await listeningPort(server);
    expect(existsSync(databasePath)).toBe(true);
    server.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('says which port is in use and what to do, in one line, having started nothing', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const databasePath = join(tempDir(), 'switchboard.db');
      const result = await completion(
        spawnEntry('src/main.ts', [], env(databasePath, { PORT: String(port), HOST: '127.0.0.1' })),
      );
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `Switchboard could not start: port ${port} is in use on 127.0.0.1: stop what uses it, or set PORT`,
      );
      expect(result.stdout).not.toContain('Switchboard ready');
      expect(existsSync(`${databasePath}.lock`)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('warns at start when private URLs are allowed, and only then', async () => {
    const run = async (allow: string) => {
      const child = spawnEntry(
        'src/main.ts',
        [],
        env(join(tempDir(), 'switchboard.db'), { WEBHOOK_ALLOW_PRIVATE_URLS: allow }),
      );
      const done = completion(child);
      // The warning follows the ready line, which follows the start of the workers.
      await new Promise<void>((resolve) => {
        let seen = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          if (seen.includes('Switchboard ready')) resolve();
        });
      });
      child.kill('SIGTERM');
      return (await done).stdout;
    };
    expect(await run('true')).toMatch(/"level":40.*WEBHOOK_ALLOW_PRIVATE_URLS is on/);
    expect(await run('false')).not.toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
  });
});
