import type { CustomerSettings } from '@switchboard/contract';

/** A customer account as stored. */
export interface CustomerRecord {
  /** UUID v7. */
  id: string;
  /** Display name. */
  name: string;
  /** Behaviour switches. */
  settings: CustomerSettings;
  /** Creation time. */
  createdAt: Date;
  /** Set when an operator deleted the customer; its keys then answer 403. */
  deletedAt: Date | null;
}

/**
 * Customer accounts. This is the operator's view: the customer table is the tenancy itself, so
 * its queries are by customer id rather than scoped to one.
 */
export interface CustomerRepository {
  /** Stores a new customer. */
  insert(customer: Omit<CustomerRecord, 'deletedAt'>): Promise<void>;
  /** The customer with this id, deleted ones included. */
  findById(id: string): Promise<CustomerRecord | undefined>;
  /** Every customer that is not deleted, oldest first. */
  listActive(): Promise<CustomerRecord[]>;
  /** Marks the customer deleted; false when it does not exist or already is. */
  markDeleted(id: string, at: Date): Promise<boolean>;
  /** How many customers exist, deleted ones included. */
  count(): Promise<number>;
}
