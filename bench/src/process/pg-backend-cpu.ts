import pg from 'pg';
import { cpuSecondsOrZero } from './cpu-idle';

/** How often the backends of the database are listed again (new connections, closed ones). */
const POLL_MS = 250;

/**
 * The CPU PostgreSQL's backends spend on one database, from `/proc` (PostgreSQL runs on this
 * machine): every backend connected to it (`pg_stat_activity.datname`), listed every 250 ms so
 * that connections opened during a window count from their start and those closed keep what
 * they were last seen to use. PostgreSQL's shared processes (WAL writer, checkpointer,
 * autovacuum) are left out, as is the backend of this meter's own connection; so are the
 * backends of other databases on the same server (other work on the machine).
 */
export class PgBackendCpu {
  readonly #client: pg.Client;
  readonly #ownPid: number;
  /** Per backend: its CPU when first seen in the window (0 when born in it) and when last seen. */
  #seen = new Map<number, { first: number; last: number }>();
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> = Promise.resolve();

  private constructor(client: pg.Client, ownPid: number) {
    this.#client = client;
    this.#ownPid = ownPid;
  }

  /** Connects to the database at `url` (the one whose backends are measured). */
  static async open(url: string): Promise<PgBackendCpu> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const result = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    return new PgBackendCpu(client, Number(result.rows[0]?.pid));
  }

  /** Starts a window: the backends connected now count from their CPU at this moment. */
  async start(): Promise<void> {
    this.#seen = new Map();
    for (const pid of await this.#pids()) {
      const cpu = cpuSecondsOrZero(pid);
      this.#seen.set(pid, { first: cpu, last: cpu });
    }
    this.#timer = setInterval(() => {
      this.#polling = this.#polling.then(() => this.#poll()).catch(() => undefined);
    }, POLL_MS);
  }

  /** Ends the window: the CPU seconds the database's backends used in it. */
  async stop(): Promise<number> {
    clearInterval(this.#timer);
    await this.#polling;
    await this.#poll();
    let total = 0;
    for (const { first, last } of this.#seen.values()) total += Math.max(0, last - first);
    return total;
  }

  /** Closes the meter's connection. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#client.end().catch(() => undefined);
  }

  async #poll(): Promise<void> {
    const pids = new Set(await this.#pids());
    for (const pid of pids) {
      const cpu = cpuSecondsOrZero(pid);
      const known = this.#seen.get(pid);
      if (known) known.last = Math.max(known.last, cpu);
      else this.#seen.set(pid, { first: 0, last: cpu });
    }
    // Backends gone since the last poll keep their last reading.
  }

  async #pids(): Promise<number[]> {
    const result = await this.#client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> $1',
      [this.#ownPid],
    );
    return result.rows.map((row) => Number(row.pid));
  }
}
