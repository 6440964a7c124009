import pg from 'pg';
import type { ClusterChannel } from '../cluster-channel';

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_MS = 1_000;

/**
 * A {@link ClusterChannel} on PostgreSQL's `LISTEN`/`NOTIFY`: notes are published with
 * `pg_notify` on any connection of the pool, and heard on one connection of its own (outside the
 * pool: a pooled connection is handed to other work), connected again when it drops. A note
 * published while the listener is away is lost: callers keep a slower path (a sweep) behind it.
 */
export class PgClusterChannel implements ClusterChannel {
  #client: pg.Client | undefined;
  #closed = false;
  #listener: ((payload: string) => void) | undefined;

  /** The channel `name` (a plain identifier) of the database `pool` connects to. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly name: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a channel name: ${name}`);
  }

  async publish(payload: string): Promise<void> {
    await this.pool.query('select pg_notify($1, $2)', [this.name, payload]);
  }

  async listen(listener: (payload: string) => void): Promise<void> {
    this.#listener = listener;
    await this.#connect().catch(() => this.#later());
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client(this.pool.options);
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.#client === client) {
        this.#client = undefined;
        this.#later();
      }
    });
    client.on('notification', (note) => {
      if (note.channel === this.name && note.payload !== undefined) this.#listener?.(note.payload);
    });
    await client.connect();
    await client.query(`listen ${this.name}`);
    if (this.#closed) {
      await client.end();
      return;
    }
    this.#client = client;
  }

  #later(): void {
    if (this.#closed) return;
    setTimeout(() => {
      this.#connect().catch(() => this.#later());
    }, RECONNECT_MS).unref();
  }
}
