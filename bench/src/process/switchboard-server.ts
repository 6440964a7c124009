import { mkdirSync } from 'node:fs';
import { SERVER_MAIN } from '../paths';
import { freePort } from './free-port';
import { type MemorySample, readMemory } from './memory-probe';
import { NodeChild, waitForHttpOk, waitForPortOpen } from './node-child';

/** The operator token the harness sets, to seed through the admin API. */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

/** Prefix of the harness's variables handed to the server without it (A/B runs of a setting). */
const PASS_THROUGH_PREFIX = 'BENCH_SERVER_';

/**
 * The server settings given to the harness as `BENCH_SERVER_<NAME>=value`, as `<NAME>=value`:
 * `BENCH_SERVER_SQLITE_CHECKPOINT_INTERVAL_MS=0 pnpm bench --only=end-to-end` measures one
 * setting against another.
 */
function serverEnvFromHarness(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith(PASS_THROUGH_PREFIX) && value !== undefined) {
      env[name.slice(PASS_THROUGH_PREFIX.length)] = value;
    }
  }
  return env;
}

/** How to start the server. */
export interface SwitchboardServerOptions {
  /** The SQLite database file (created and migrated when missing). */
  databasePath: string;
  /** Extra or overriding environment variables. */
  env?: Record<string, string>;
  /** When set, the server writes a V8 CPU profile into this folder when it stops. */
  cpuProfileDir?: string;
  /** A label for error messages and profile names. */
  label?: string;
}

/**
 * The real, built Switchboard server in its own process, configured for a benchmark: production
 * mode, SQLite on a file, the simulator without step delays, the per-key rate limit out of the
 * way, the admin API on, loopback webhook receivers allowed, and warnings-only logging.
 */
export class SwitchboardServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Milliseconds from spawning the process to the first 200 of `GET /health`. */
  readonly startMs: number;
  /** Milliseconds from spawning the process to its port accepting connections. */
  readonly portOpenMs: number;
  readonly #process: NodeChild;

  private constructor(url: string, process: NodeChild, startMs: number, portOpenMs: number) {
    this.url = url;
    this.#process = process;
    this.startMs = startMs;
    this.portOpenMs = portOpenMs;
  }

  /** Starts the server and waits until it answers `GET /health`. */
  static async start(options: SwitchboardServerOptions): Promise<SwitchboardServer> {
    const port = await freePort();
    const nodeArgs: string[] = [];
    if (options.cpuProfileDir) {
      mkdirSync(options.cpuProfileDir, { recursive: true });
      nodeArgs.push(
        '--cpu-prof',
        `--cpu-prof-dir=${options.cpuProfileDir}`,
        `--cpu-prof-name=${options.label ?? 'server'}-${Date.now()}.cpuprofile`,
      );
    }
    const started = performance.now();
    const child = NodeChild.spawn({
      name: `switchboard server (${options.label ?? 'bench'})`,
      script: SERVER_MAIN,
      nodeArgs,
      env: {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: options.databasePath,
        SIMULATOR_STEP_MS: '0',
        RATE_LIMIT_PER_MINUTE: '100000000',
        SWITCHBOARD_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'warn',
        ...serverEnvFromHarness(),
        ...options.env,
      },
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      const [startMs, portOpenMs] = await Promise.all([
        waitForHttpOk(`${url}/health`, child, { startedAt: started, intervalMs: 2 }),
        waitForPortOpen(port, child, { startedAt: started }),
      ]);
      return new SwitchboardServer(url, child, startMs, portOpenMs);
    } catch (error) {
      await child.stop();
      throw error;
    }
  }

  /** The server's process id. */
  get pid(): number {
    return this.#process.pid;
  }

  /** The server's resident memory now and at its peak. */
  memory(): MemorySample {
    return readMemory(this.pid) ?? { rssBytes: Number.NaN, peakRssBytes: Number.NaN };
  }

  /** What the server printed last (warnings and errors), for diagnosis. */
  get outputTail(): string {
    return this.#process.outputTail;
  }

  /** Stops the server gracefully (SIGTERM) and waits for it to exit. */
  async stop(): Promise<void> {
    await this.#process.stop();
  }
}
