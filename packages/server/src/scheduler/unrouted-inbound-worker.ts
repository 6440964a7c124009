import type { UnroutedInboundService } from '../domain/inbound/unrouted-inbound-service';
import { PeriodicWorker } from './periodic-worker';

/**
 * Every `UNROUTED_INBOUND_INTERVAL_MS` (and at start, and when an address is assigned): delivers
 * the kept inbound items whose address is now assigned, and forgets those past their retention.
 */
export class UnroutedInboundWorker extends PeriodicWorker {
  /** A worker over the service, running every `intervalMs`. */
  constructor(service: UnroutedInboundService, intervalMs: number) {
    super({
      name: 'unrouted-inbound',
      intervalMs,
      run: () => service.deliverAssigned(),
      failure: 'unrouted inbound run failed',
    });
  }
}
