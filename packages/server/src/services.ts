import type { Clock } from './clock';
import { ApiKeyService } from './domain/api-keys/api-key-service';
import { CustomerService } from './domain/customers/customer-service';
import { HealthService } from './domain/health/health-service';
import { InstanceService } from './domain/instances/instance-service';
import { NumberService } from './domain/numbers/number-service';
import type { Store } from './store/store';

/** The domain services the HTTP routes and the CLI call. */
export interface Services {
  /** Customer accounts. */
  customers: CustomerService;
  /** API keys and authentication. */
  apiKeys: ApiKeyService;
  /** Provider instances. */
  instances: InstanceService;
  /** Sender numbers. */
  numbers: NumberService;
  /** The health report. */
  health: HealthService;
}

/** Creates every service over one store and clock. */
export function createServices(store: Store, clock: Clock): Services {
  return {
    customers: new CustomerService(store, clock),
    apiKeys: new ApiKeyService(store, clock),
    instances: new InstanceService(store, clock),
    numbers: new NumberService(store, clock),
    health: new HealthService(store, clock),
  };
}
