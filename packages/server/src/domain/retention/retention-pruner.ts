import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../clock';
import type {
  PruneBatch,
  PruneWindow,
  RetentionKind,
  RetentionPeriods,
  RetentionRepository,
} from '../../store/retention-repository';
import type { Store } from '../../store/store';
import { effectivePeriods, RETENTION_KINDS } from './retention-policy';

const DAY_MS = 86_400_000;

/** Free pages given back per incremental-vacuum step (2 KB pages: 512 KB a step). */
const VACUUM_STEP_PAGES = 256;

/** Most vacuum steps per run, so one run never holds on for long (512 MB at most). */
const MAX_VACUUM_STEPS = 1024;

/** What the pruner needs. */
export interface RetentionPrunerOptions {
  /** The store. */
  store: Store;
  /** The clock ages are measured by. */
  clock: Clock;
  /** The deployment's periods. */
  deployment: RetentionPeriods;
  /** Rows per batch (one short transaction each). */
  batchSize: number;
  /** Pause between batches, so other writers get the database in between. */
  batchPauseMs: number;
}

/** What one run removed per kind, and the free pages left after reclaiming space. */
export type PruneReport = Record<RetentionKind, number> & { freePages: number };

/** One kind's batch through the repository. */
function pruneOne(
  repository: RetentionRepository,
  kind: RetentionKind,
  window: PruneWindow,
  at: Date,
): Promise<PruneBatch> {
  switch (kind) {
    case 'eventLog':
      return repository.pruneEvents(window);
    case 'deliveryLog':
      return repository.pruneDeliveries(window);
    case 'inboundAttachments':
      return repository.pruneAttachments(window);
    case 'messageContent':
      return repository.redactMessages(window, at);
  }
}

/**
 * Applies the retention periods: for each customer and kind, deletes (or, for message content,
 * redacts) what is older than the period in batches of `batchSize` rows, each batch its own short
 * transaction with a pause after it, so the writer is never held for long. Sweeps that walk rows
 * that stay (delivery logs of kept events, redacted messages) remember where they stopped.
 * Then SQLite gives the freed pages back to the file system in small steps.
 */
export class RetentionPruner {
  readonly #options: RetentionPrunerOptions;
  /** Per kind and customer: rows created before this were handled already (epoch ms). */
  readonly #watermarks = new Map<string, number>();

  /** A pruner with `options`. */
  constructor(options: RetentionPrunerOptions) {
    this.#options = options;
  }

  /** One full pass over every customer and kind. */
  async run(): Promise<PruneReport> {
    const { store, deployment } = this.#options;
    const report: PruneReport = {
      eventLog: 0,
      deliveryLog: 0,
      inboundAttachments: 0,
      messageContent: 0,
      freePages: 0,
    };
    const overrides = new Map(
      (await store.retention.overrides()).map((o) => [o.customerId, o.periods]),
    );
    for (const customerId of await store.retention.customerIds()) {
      const periods = effectivePeriods(deployment, overrides.get(customerId));
      for (const kind of RETENTION_KINDS) {
        const days = periods[kind];
        if (days !== null) report[kind] += await this.#sweep(kind, customerId, days);
      }
    }
    report.freePages = await this.#reclaim();
    return report;
  }

  /** Prunes one customer's rows of one kind older than `days`, batch by batch. */
  async #sweep(kind: RetentionKind, customerId: string, days: number): Promise<number> {
    const { store, clock, batchSize } = this.#options;
    const now = clock.now();
    const before = new Date(now - days * DAY_MS);
    const key = `${kind}:${customerId}`;
    let removed = 0;
    for (;;) {
      const after = new Date(this.#watermarks.get(key) ?? 0);
      const window: PruneWindow = { customerId, before, after, limit: batchSize };
      const started = performance.now();
      const batch = await store.transaction((tx) =>
        pruneOne(tx.retention, kind, window, new Date(now)),
      );
      const took = performance.now() - started;
      removed += batch.removed;
      if (batch.until) {
        // Rows sharing the last timestamp are looked at again; a full batch of them moves on.
        const next = batch.until.getTime();
        this.#watermarks.set(key, next > after.getTime() ? next : next + 1);
      }
      if (batch.scanned < batchSize) return removed;
      // At least as long as the batch took: pruning never has the writer more than half the time.
      await this.#pause(took);
    }
  }

  /** Gives free pages back in steps (SQLite); answers how many remain free. */
  async #reclaim(): Promise<number> {
    const { store } = this.#options;
    let free = await store.retention.reclaimSpace(0);
    for (let step = 0; free > 0 && step < MAX_VACUUM_STEPS; step += 1) {
      const before = free;
      free = await store.retention.reclaimSpace(VACUUM_STEP_PAGES);
      if (free >= before) break;
      await this.#pause();
    }
    return free;
  }

  #pause(atLeastMs = 0): Promise<void> {
    const ms = Math.max(this.#options.batchPauseMs, atLeastMs);
    return ms > 0 ? sleep(ms) : new Promise<void>((resolve) => setImmediate(resolve));
  }
}
