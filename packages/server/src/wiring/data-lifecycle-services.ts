import type { Clock } from '../clock';
import type { Config } from '../config';
import { ContactErasureService } from '../domain/contact-erasure/contact-erasure-service';
import { RetentionPruner } from '../domain/retention/retention-pruner';
import { RetentionService } from '../domain/retention/retention-service';
import type { PeriodicWorkerLogger } from '../scheduler/periodic-worker';
import { RetentionWorker } from '../scheduler/retention-worker';
import type { Store } from '../store/store';
import type { Workers } from '../workers';

/** Data over time: forgetting contacts, retention periods and their pruning. */
export interface DataLifecycleServices {
  /** Forgets a contact (customer- or operator-scoped) and records it. */
  contactErasures: ContactErasureService;
  /** Per-customer retention periods. */
  retention: RetentionService;
  /** One pass of retention's pruning (the worker runs it on a rhythm). */
  retentionPruner: RetentionPruner;
  /** Prunes every `RETENTION_INTERVAL_MS` (started by the app). */
  retentionWorker: RetentionWorker;
}

/** Creates the data-lifecycle services over the store. */
export function createDataLifecycleServices(
  store: Store,
  clock: Clock,
  config: Config,
): DataLifecycleServices {
  const retentionPruner = new RetentionPruner({
    store,
    clock,
    deployment: config.retentionPeriods,
    batchSize: config.retentionBatchSize,
    batchPauseMs: config.retentionBatchPauseMs,
  });
  return {
    contactErasures: new ContactErasureService(store, clock),
    retention: new RetentionService(store, clock, config.retentionPeriods),
    retentionPruner,
    retentionWorker: new RetentionWorker(retentionPruner, config.retentionIntervalMs),
  };
}

/** Starts the retention worker and registers it for shutdown. */
export function startDataLifecycle(
  services: DataLifecycleServices,
  workers: Workers,
  logger: PeriodicWorkerLogger,
): void {
  workers.add(services.retentionWorker);
  services.retentionWorker.start(logger);
}
