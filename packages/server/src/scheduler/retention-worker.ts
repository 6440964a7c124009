import type { RetentionPruner } from '../domain/retention/retention-pruner';
import { PeriodicWorker } from './periodic-worker';

/** Every `RETENTION_INTERVAL_MS` (and at start): prunes what is past its retention period. */
export class RetentionWorker extends PeriodicWorker {
  /** A worker over the pruner, running every `intervalMs`. */
  constructor(pruner: RetentionPruner, intervalMs: number) {
    super({
      name: 'retention',
      intervalMs,
      run: () => pruner.run(),
      failure: 'retention run failed',
    });
  }
}
