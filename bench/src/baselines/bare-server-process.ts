import { join } from 'node:path';
import { BENCH_SRC_DIR } from '../paths';
import { freePort } from '../process/free-port';
import { type NodeChild, spawnHttpChild } from '../process/node-child';

/** The bare Fastify baseline server (see `bare-server.ts`) in its own process. */
export class BareServer {
  private constructor(
    /** Base URL. */
    readonly url: string,
    private readonly process: NodeChild,
  ) {}

  /** Starts the baseline with the real server's 202 body size and events per send. */
  static async start(options: {
    responseBytes: number;
    eventsPerSend?: number;
  }): Promise<BareServer> {
    const port = await freePort();
    const { child, url } = await spawnHttpChild(
      {
        name: 'bare Fastify baseline',
        script: join(BENCH_SRC_DIR, 'baselines', 'bare-server.ts'),
        env: {
          NODE_ENV: 'production',
          PORT: String(port),
          RESPONSE_BYTES: String(options.responseBytes),
          EVENTS_PER_SEND: String(options.eventsPerSend ?? 3),
        },
      },
      port,
    );
    return new BareServer(url, child);
  }

  /** The baseline's process id. */
  get pid(): number {
    return this.process.pid;
  }

  /** Stops the baseline. */
  async stop(): Promise<void> {
    await this.process.stop();
  }
}
