import Database from 'better-sqlite3';

/** One reading of the server's queues, straight from its database. */
export interface BacklogSample {
  /** Milliseconds since sampling started. */
  atMs: number;
  /** Webhook deliveries not attempted yet or in flight. */
  pendingDeliveries: number;
  /** Webhook deliveries waiting for a scheduled retry. */
  retryingDeliveries: number;
  /** Outbound messages not in a final state yet. */
  unfinishedMessages: number;
}

/**
 * Samples the webhook delivery backlog and the unfinished messages from the server's SQLite file,
 * on a read-only connection of its own (WAL lets it read while the server writes).
 */
export class DeliveryBacklogSampler {
  readonly samples: BacklogSample[] = [];
  readonly #db: Database.Database;
  readonly #timer: NodeJS.Timeout;
  readonly #started = performance.now();

  /** Starts sampling every `intervalMs`. */
  constructor(databasePath: string, intervalMs = 250) {
    this.#db = new Database(databasePath, { readonly: true, fileMustExist: true });
    this.sample();
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Takes one sample now and returns it. */
  sample(): BacklogSample {
    const count = (sql: string) => (this.#db.prepare(sql).pluck().get() as number) ?? 0;
    const sample: BacklogSample = {
      atMs: Math.round(performance.now() - this.#started),
      pendingDeliveries: count("select count(*) from webhook_deliveries where status = 'pending'"),
      retryingDeliveries: count(
        "select count(*) from webhook_deliveries where status = 'retrying'",
      ),
      unfinishedMessages: count(
        "select count(*) from messages where status in ('queued', 'pending', 'sent')",
      ),
    };
    this.samples.push(sample);
    return sample;
  }

  /** Stops sampling and closes the connection. */
  stop(): void {
    clearInterval(this.#timer);
    this.#db.close();
  }
}
