import type {
  Channel as ContractChannel,
  InstanceProvider as ContractProvider,
} from '@switchboard/contract';

/** A delivery channel. */
export type Channel = ContractChannel;

/** A provider adapter name. */
export type InstanceProvider = ContractProvider;

/** Health values of a provider instance. */
export type HealthStatusValue = 'healthy' | 'degraded' | 'unhealthy' | 'unknown';
