import type { Channel, HealthStatusValue, InstanceProvider } from './store-types';

/** A provider instance as stored. */
export interface InstanceRecord {
  /** UUID v7. */
  id: string;
  /** Unique friendly name. */
  name: string;
  /** Provider adapter name. */
  provider: InstanceProvider;
  /** Channels the instance serves. */
  channels: Channel[];
  /** Provider-specific settings (may hold credentials: never returned by the API). */
  config: Record<string, unknown>;
  /** Result of the last health check. */
  healthStatus: HealthStatusValue;
  /** Why the instance is degraded, from the last health check. */
  healthWarnings: string[];
  /** When the last health check ran; null before the first. */
  healthCheckedAt: Date | null;
  /** Creation time. */
  createdAt: Date;
}

/** The outcome of one instance health check. */
export interface InstanceHealth {
  /** Health value. */
  status: HealthStatusValue;
  /** Warnings of a degraded instance. */
  warnings: string[];
  /** When the check ran. */
  checkedAt: Date;
}

/** Provider instances: operator-level resources shared by the customers whose numbers they serve. */
export interface InstanceRepository {
  /** Stores a new instance. */
  insert(instance: InstanceRecord): Promise<void>;
  /** The instance with this id. */
  findById(id: string): Promise<InstanceRecord | undefined>;
  /** The instance with this name. */
  findByName(name: string): Promise<InstanceRecord | undefined>;
  /** Every instance, oldest first. */
  list(): Promise<InstanceRecord[]>;
  /** Records the outcome of a health check. */
  updateHealth(id: string, health: InstanceHealth): Promise<void>;
  /** How many instances exist. */
  count(): Promise<number>;
}
