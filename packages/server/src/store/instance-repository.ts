import type { Channel, HealthStatusValue, InstanceProvider } from './store-types';

/** A provider instance as stored. */
export interface InstanceRecord {
  /** UUID v7. */
  id: string;
  /** Unique friendly name (among instances that are not deleted). */
  name: string;
  /** Provider adapter name. */
  provider: InstanceProvider;
  /** Channels the instance serves. */
  channels: Channel[];
  /** Provider-specific settings, secrets included (stored encrypted, never returned in clear). */
  config: Record<string, unknown>;
  /** False when the operator stopped the instance. */
  enabled: boolean;
  /** The token of its ingress URL (stored encrypted). */
  ingressToken: string;
  /** Result of the last health check. */
  healthStatus: HealthStatusValue;
  /** Why the instance is degraded, from the last health check. */
  healthWarnings: string[];
  /** When the last health check ran; null before the first. */
  healthCheckedAt: Date | null;
  /** Creation time. */
  createdAt: Date;
  /** Last change of its settings. */
  updatedAt: Date;
  /** When the operator deleted it; null while it exists. */
  deletedAt: Date | null;
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

/** What an update of an instance may change. */
export type InstanceChanges = Partial<
  Pick<
    InstanceRecord,
    'name' | 'channels' | 'config' | 'enabled' | 'ingressToken' | 'updatedAt' | 'deletedAt'
  >
>;

/** Provider instances: operator-level resources shared by the customers whose numbers they serve. */
export interface InstanceRepository {
  /** Stores a new instance. */
  insert(instance: InstanceRecord): Promise<void>;
  /** The instance with this id, deleted or not (messages keep naming their instance). */
  findById(id: string): Promise<InstanceRecord | undefined>;
  /** The instance with this name, not deleted. */
  findByName(name: string): Promise<InstanceRecord | undefined>;
  /** Every instance not deleted, oldest first. */
  list(): Promise<InstanceRecord[]>;
  /** Applies `changes`; false when no such instance exists. */
  update(id: string, changes: InstanceChanges): Promise<boolean>;
  /** Records the outcome of a health check. */
  updateHealth(id: string, health: InstanceHealth): Promise<void>;
  /** How many instances exist, not deleted. */
  count(): Promise<number>;
}
