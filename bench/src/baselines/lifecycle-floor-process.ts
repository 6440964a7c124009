import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_SRC_DIR } from '../paths';
import { freePort } from '../process/free-port';
import { type NodeChild, spawnHttpChild } from '../process/node-child';

/** The end-to-end scenario's floor (see `lifecycle-floor.ts`) in its own process. */
export class LifecycleFloor {
  private constructor(
    /** Base URL: sends go to `<url>/v1/messages`. */
    readonly url: string,
    private readonly process: NodeChild,
  ) {}

  /**
   * Starts the floor on `databasePath`, a copy of a database the server delivered messages in,
   * delivering its webhooks to `receiverUrl` signed with `secret`.
   */
  static async start(options: {
    databasePath: string;
    receiverUrl: string;
    secret: string;
    webhookConcurrency: number;
    /** When set, the floor writes V8 CPU profiles into `<folder>/lifecycle-floor` when it stops. */
    cpuProfileDir?: string;
  }): Promise<LifecycleFloor> {
    const port = await freePort();
    const nodeArgs: string[] = [];
    if (options.cpuProfileDir) {
      // Node's own names (one file per thread: tsx's loader thread writes one too), in a folder
      // of the floor's own.
      const folder = join(options.cpuProfileDir, 'lifecycle-floor');
      mkdirSync(folder, { recursive: true });
      nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${folder}`);
    }
    const { child, url } = await spawnHttpChild(
      {
        name: 'lifecycle floor',
        script: join(BENCH_SRC_DIR, 'baselines', 'lifecycle-floor.ts'),
        nodeArgs,
        env: {
          NODE_ENV: 'production',
          PORT: String(port),
          DATABASE_PATH: options.databasePath,
          RECEIVER_URL: options.receiverUrl,
          WEBHOOK_SECRET: options.secret,
          WEBHOOK_CONCURRENCY: String(options.webhookConcurrency),
          LEAVE_OUT: process.env.BENCH_FLOOR_LEAVE_OUT ?? '',
          WRITER: process.env.BENCH_FLOOR_WRITER ?? '',
          // A probe for the floor too (`bench/probes/`), as BENCH_SERVER_NODE_OPTIONS for the server.
          ...(process.env.BENCH_FLOOR_NODE_OPTIONS
            ? { NODE_OPTIONS: process.env.BENCH_FLOOR_NODE_OPTIONS }
            : {}),
        },
      },
      port,
    );
    return new LifecycleFloor(url, child);
  }

  /** The floor's process id. */
  get pid(): number {
    return this.process.pid;
  }

  /** The end of the floor's output, for error messages. */
  get outputTail(): string {
    return this.process.outputTail;
  }

  /** Stops the floor. */
  async stop(): Promise<void> {
    await this.process.stop();
  }
}
