import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { onTestFinished } from 'vitest';
import { type BuildAppOverrides, buildApp } from '../../src/app';
import { ManualClock } from '../../src/clock';
import { type Config, loadConfig } from '../../src/config';
import { createTestDatabase, TEST_ENCRYPTION_KEY } from './postgres-database';

/** The operator token every test app is configured with (unless a test unsets it). */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** A ready app on a fresh SQLite file, with its clock and captured logs. */
export interface TestApp {
  /** The app (not listening; use `inject`). */
  app: FastifyInstance;
  /** Its configuration. */
  config: Config;
  /** The manual clock the app reads. */
  clock: ManualClock;
  /** The temporary directory holding the database. */
  dir: string;
  /** The SQLite file. */
  databasePath: string;
  /** Every JSON log line written so far. */
  logs: Record<string, unknown>[];
  /** Closes the app and removes the temporary directory. */
  close(): Promise<void>;
}

/** Options of {@link buildTestApp}. */
export interface TestAppOptions {
  /** Extra environment variables (`SWITCHBOARD_ADMIN_TOKEN: ''` unsets the admin token). */
  env?: Record<string, string>;
  /** Reuse this directory (and its database) instead of a fresh one; it is not removed. */
  dir?: string;
  /** Replacements passed to `buildApp` (the clock and log stream are the test app's own). */
  overrides?: Omit<BuildAppOverrides, 'clock' | 'logStream'>;
  /** Where the manual clock starts (epoch milliseconds; default 2026-01-15T12:00:00Z). */
  startAt?: number;
  /**
   * `sqlite` for a test that reads the SQLite file itself: it runs on SQLite even when the
   * suite runs on PostgreSQL ({@link TEST_STORE}).
   */
  store?: 'sqlite';
  /**
   * `false` for a test that needs the process's own rate limit or event bus (one that moves the
   * manual clock through a rate-limit window, which Redis times itself): no Redis even when the
   * suite runs on PostgreSQL and Redis.
   */
  redis?: false;
}

/** The Redis server test apps on PostgreSQL use. */
const TEST_REDIS_URL = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Which store test apps use: `postgres` when the suite runs with `SWITCHBOARD_TEST_STORE=postgres`
 * (a fresh database per app on the test server, see postgres-database.ts, and Redis), SQLite
 * otherwise.
 */
export const TEST_STORE: 'sqlite' | 'postgres' =
  process.env.SWITCHBOARD_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * The PostgreSQL database of a test directory: created on first use and remembered in the
 * directory, so an app rebuilt on the same directory (a restart) finds the same database.
 */
async function postgresDatabaseOf(
  dir: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const remembered = join(dir, 'postgres-url');
  if (existsSync(remembered)) {
    return { url: readFileSync(remembered, 'utf8'), drop: async () => undefined };
  }
  const database = await createTestDatabase();
  writeFileSync(remembered, database.url);
  return database;
}

/** A fresh temporary directory, removed after the current test when called inside one. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    // Called outside a test (beforeAll): the caller removes it.
  }
  return dir;
}

/**
 * Builds the real app on a fresh SQLite file in a temporary directory. Inside a test it is closed
 * (and the directory removed) when the test finishes; from `beforeAll`, call `close()` yourself.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  const databasePath = join(dir, 'switchboard.db');
  // A directory that already holds a SQLite database (an app rebuilt on it) keeps it.
  const sqliteBefore = existsSync(databasePath) && !existsSync(join(dir, 'postgres-url'));
  const postgres =
    TEST_STORE === 'postgres' &&
    options.store !== 'sqlite' &&
    !sqliteBefore &&
    options.env?.DATABASE_URL === undefined
      ? await postgresDatabaseOf(dir)
      : undefined;
  const config = loadConfig({
    DATABASE_URL: postgres?.url ?? databasePath,
    ...(postgres
      ? {
          SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
          // The scale-out setup: Redis carries the rate limit and the event bus, under a prefix
          // of the app's own so that apps of parallel tests never share a limit.
          ...(options.redis === false
            ? {}
            : { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test-${randomUUID()}:` }),
        }
      : {}),
    SWITCHBOARD_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const clock = new ManualClock(options.startAt ?? Date.parse('2026-01-15T12:00:00.000Z'));
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  const app = await buildApp(config, { ...options.overrides, clock, logStream });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
    if (!options.dir) {
      rmSync(dir, { recursive: true, force: true });
      await postgres?.drop();
    }
  };
  try {
    onTestFinished(close);
  } catch {
    // Built outside a test (beforeAll): the caller closes it.
  }
  return { app, config, clock, dir, databasePath, logs, close };
}

/** The parsed JSON body of an injected response. */
export function bodyOf<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}

/** Headers carrying a Bearer token. */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** The app's loopback origin (`http://127.0.0.1:<port>`), making it listen first if it does not. */
export async function loopbackOrigin(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('the app is not listening');
  return `http://127.0.0.1:${address.port}`;
}
