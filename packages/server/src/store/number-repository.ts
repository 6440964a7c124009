import type { Channel, HealthStatusValue } from './store-types';

/** A health a customer simulated for one of its numbers (the sandbox). */
export interface NumberHealthOverride {
  /** The status the number shows. */
  status: HealthStatusValue;
  /** The warning sentences. */
  warnings: string[];
  /** When it was set (epoch milliseconds). */
  at: number;
}

/** Per channel, the instance serving that channel of a number when it is not its own. */
export type ChannelInstanceMap = Partial<Record<Channel, string>>;

/** A sender address authorized for one customer and served by one instance. */
export interface SenderNumberRecord {
  /** UUID v7. */
  id: string;
  /** The customer allowed to send from it. */
  customerId: string;
  /** The instance that sends and receives for it. */
  instanceId: string;
  /** Channels served by another instance (`{sms: <twilio instance>}`); empty when none. */
  channelInstances: ChannelInstanceMap;
  /** E.164 phone number. */
  phoneNumber: string;
  /** Optional e-mail style address of the same sender (iMessage). */
  email: string | null;
  /** The customer's default sender when `from` is omitted. */
  isDefault: boolean;
  /** Creation time. */
  createdAt: Date;
}

/** A sender number with the instance facts the API shows next to it. */
export interface SenderNumberView extends SenderNumberRecord {
  /** Friendly name of the serving instance. */
  instanceName: string;
  /** Health of the serving instance, or the one the customer simulated for the number. */
  healthStatus: HealthStatusValue;
  /** The channels the serving instance carries (read in the same join: a send needs them). */
  instanceChannels: Channel[];
}

/** Sender numbers. Every query is scoped by customer, except the global address lookup. */
export interface NumberRepository {
  /** Stores a new assignment. */
  insert(number: SenderNumberRecord): Promise<void>;
  /** The customer's numbers, the default first, then oldest first. */
  listByCustomer(customerId: string): Promise<SenderNumberView[]>;
  /** The customer's number whose phone number or e-mail address is `address`. */
  findByAddress(customerId: string, address: string): Promise<SenderNumberView | undefined>;
  /** The customer's default number. */
  findDefault(customerId: string): Promise<SenderNumberView | undefined>;
  /**
   * The assignment of `address` (phone number or e-mail) whichever customer holds it: addresses
   * are unique across customers, and inbound messages are routed by the receiving address.
   */
  findByAddressInAnyCustomer(address: string): Promise<SenderNumberView | undefined>;
  /** Clears the customer's default flag. */
  clearDefault(customerId: string): Promise<void>;
  /** Sets (or with null clears) the health the customer simulated for its number. */
  setSandboxHealth(
    customerId: string,
    phoneNumber: string,
    health: NumberHealthOverride | null,
  ): Promise<void>;
  /** Removes the customer's number; false when the customer has no such number. */
  delete(customerId: string, phoneNumber: string): Promise<boolean>;
  /** Removes every number of the customer; returns how many. */
  deleteAllOfCustomer(customerId: string): Promise<number>;
  /** The phone numbers the instance serves (as theirs, or for a channel), whichever customer. */
  phoneNumbersOfInstance(instanceId: string): Promise<string[]>;
  /**
   * Removes every number the instance serves as its own, and the instance from the channels it
   * serves for others; returns the phone numbers affected.
   */
  deleteAllOfInstance(instanceId: string): Promise<string[]>;
}
