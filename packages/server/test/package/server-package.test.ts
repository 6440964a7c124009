import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  freeLoopbackPort,
  installPacked,
  type PackedProject,
  startLoopbackReceiver,
} from '@switchboard/testing';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, PACKAGE_ROOT, serverReady } from '../support/child-process';
import { tempDir } from '../support/test-app';

// The server package as it would be published: `pnpm pack` (its prepack builds it and stages the
// API document), installed alone in an empty project, then started with `npx switchboard serve`.
const workspaceDir = join(PACKAGE_ROOT, '..', '..');
const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};
let project: PackedProject;

beforeAll(async () => {
  project = await installPacked({
    packageDir: PACKAGE_ROOT,
    workspaceDir,
    // ffprobe's install script marks it executable. The SQLite addon must load in this Node.js
    // (CI runs the suite on Node 20 and 22): the store's cached build is rebuilt when it does not.
    allowBuilds: ['better-sqlite3', '@ffprobe-installer/linux-x64'],
    nativeAddons: { 'better-sqlite3': 'better_sqlite3.node' },
  });
}, 600_000);
afterAll(() => project?.remove());

const installedDir = () => join(project.dir, 'node_modules', '@switchboard', 'server');
const npx = (args: string[], env: Record<string, string>) =>
  spawn('npx', ['--no-install', 'switchboard', ...args], {
    cwd: project.dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** The pid of the server holding a SQLite database: its lock file names it. */
const serverPid = (databasePath: string) => Number(readFileSync(`${databasePath}.lock`, 'utf8'));

describe('the packed server, installed alone', () => {
  it('bundles the workspace packages: only its declared dependencies are installed', () => {
    const installed = project.installedPackages();
    expect(installed).not.toContain('@switchboard/contract');
    expect(installed).not.toContain('@switchboard/provider-kit');
    for (const name of Object.keys(manifest.dependencies)) expect(installed).toContain(name);
    const packed = JSON.parse(readFileSync(join(installedDir(), 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(JSON.stringify(packed)).not.toContain('workspace:');
  });

  it('passes publint and ships its licence, migrations and API document', async () => {
    const { messages, pkg } = await publint({ pkgDir: installedDir(), pack: false });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([]);
    expect(readFileSync(join(installedDir(), 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(readFileSync(join(installedDir(), 'drizzle', 'meta', '_journal.json'), 'utf8')).toMatch(
      /entries/,
    );
    expect(readFileSync(join(installedDir(), 'openapi', 'openapi.json'), 'utf8')).toBe(
      readFileSync(join(workspaceDir, 'openapi', 'openapi.json'), 'utf8'),
    );
    // The console's built page, served at /console (decision 0561).
    expect(readFileSync(join(installedDir(), 'console', 'dist', 'index.html'), 'utf8')).toContain(
      '/console/assets/',
    );
  });

  it('loads the Redis client, PostgreSQL store and media sniffer only when they are used', () => {
    // What `dist/main.js` and the CLI import before any line of ours runs, followed chunk by
    // chunk; the bundler marks each module it inlines with its path in a comment.
    const dist = join(installedDir(), 'dist');
    const reached = new Set<string>();
    const follow = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      const code = readFileSync(join(dist, file), 'utf8');
      for (const match of code.matchAll(/^(?:import|export)\b[^;]*?["']\.\/([^"']+\.js)["']/gm)) {
        if (match[1]) follow(match[1]);
      }
    };
    follow('main.js');
    follow('cli.js');
    const source = (file: string) => readFileSync(join(dist, file), 'utf8');
    const startUp = [...reached].map(source).join('\n');
    const lazy = readdirSync(dist)
      .filter((file) => file.endsWith('.js') && !reached.has(file))
      .map(source)
      .join('\n');
    for (const marker of [
      'node_modules/.pnpm/ioredis@',
      'node_modules/.pnpm/file-type@',
      'src/store/postgres/',
    ]) {
      expect(startUp, marker).not.toContain(marker);
      // Still shipped, in a chunk loaded on first use.
      expect(lazy, marker).toContain(marker);
    }
    expect(startUp).toContain('src/store/sqlite/');
  });

  it('prints its version', async () => {
    const result = await completion(npx(['--version'], {}));
    expect(result.stdout.trim()).toBe(manifest.version);
  });

  it('starts with npx switchboard serve, serves its docs and delivers a message and its webhooks', async () => {
    const dir = tempDir();
    const databasePath = join(dir, 'switchboard.db');
    // The receiver is on the loopback; the webhooks go out from the built sender thread.
    const env = { DATABASE_URL: databasePath, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
    const receiver = await startLoopbackReceiver();
    const seeded = await completion(npx(['--json', '--create-database', 'quickstart'], env));
    expect(seeded.code, seeded.stderr).toBe(0);
    const { apiKey } = JSON.parse(seeded.stdout) as { apiKey: { key: string } };

    const port = await freeLoopbackPort();
    const server = npx(['serve'], { ...env, HOST: '127.0.0.1', PORT: String(port) });
    const done = completion(server);
    try {
      await serverReady(server);
      const base = `http://127.0.0.1:${port}`;
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ checks: { database: { status: 'ok' } } });
      const consolePage = await fetch(`${base}/console`);
      expect(consolePage.status).toBe(200);
      expect(await consolePage.text()).toContain('/console/assets/');
      const served = await (await fetch(`${base}/openapi.json`)).json();
      // Compared as a boolean: a mismatch would otherwise print two half-megabyte documents.
      const committed = JSON.parse(
        readFileSync(join(workspaceDir, 'openapi', 'openapi.json'), 'utf8'),
      ) as Record<string, unknown>;
      // The served document names this server (its host and port), the committed one the default.
      expect(
        JSON.stringify(served) ===
          JSON.stringify({
            ...committed,
            servers: [{ url: base, description: 'This Switchboard server' }],
          }),
      ).toBe(true);
      const page = await (await fetch(`${base}/docs`)).text();
      const script = /src="(\/docs\/[^"]+\.js)"/.exec(page)?.[1];
      expect(script).toBeDefined();
      // Every body is read to its end: an unread response keeps its connection busy, and the
      // server's graceful shutdown rightly waits for it.
      const asset = await fetch(`${base}${script}`);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);

      const headers = { authorization: `Bearer ${apiKey.key}`, 'content-type': 'application/json' };
      const hook = await fetch(`${base}/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `${receiver.origin}/hooks`, events: ['message.delivered'] }),
      });
      expect(hook.status).toBe(201);
      const sent = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ to: '+12125550188', content: { text: 'From the tarball' } }),
      });
      expect(sent.status).toBe(202);
      const { data } = (await sent.json()) as { data: { id: string } };
      await expect
        .poll(
          async () => {
            const message = await fetch(`${base}/v1/messages/${data.id}`, { headers });
            return ((await message.json()) as { data: { status: string } }).data.status;
          },
          { timeout: 15_000 },
        )
        .toBe('delivered');
      await expect
        .poll(() => receiver.requests.map((request) => request.headers['x-event-type']), {
          timeout: 15_000,
        })
        .toEqual(['message.delivered']);
      expect(receiver.requests[0]?.headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      // npx runs the server as a grandchild: the signal goes to the server itself, as a process
      // manager would send it, and npx ends with it.
      process.kill(serverPid(databasePath), 'SIGTERM');
      const result = await done;
      expect(result.stdout).toContain('shutdown complete');
      expect(existsSync(`${databasePath}.lock`)).toBe(false);
    } finally {
      await receiver.close();
      // A failed test leaves no server behind.
      if (existsSync(`${databasePath}.lock`)) {
        try {
          process.kill(serverPid(databasePath), 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }, 60_000);
});
