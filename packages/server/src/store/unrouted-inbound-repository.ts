import type { Channel } from './store-types';

/** Why an inbound item could not be routed to a customer. */
export type UnroutedReason =
  /** No customer has a number (or e-mail address) equal to the receiving address. */
  | 'address_not_assigned'
  /** A customer has the address, but on another instance than the one that reported the item. */
  | 'address_on_other_instance';

/**
 * An inbound item (a message, reaction or event) an upstream handed the gateway that no customer
 * could receive: kept, with its reason, until the address is assigned (then delivered), the
 * operator discards it, or its retention ends.
 */
export interface UnroutedInboundRecord {
  /** `unr_<uuid v7>`: time-ordered, so ties of `receivedAt` keep the order of arrival. */
  id: string;
  /** The instance that reported it. */
  instanceId: string;
  /** The receiving address the upstream named (as it named it: a WhatsApp JID stays a JID). */
  address: string;
  /** The provider event kind (`message.inbound`, `message.reaction`…). */
  kind: string;
  /** Why it was not routed. */
  reason: UnroutedReason;
  /** The contact it came from, when the event names one. */
  from: string | null;
  /** The channel it arrived on. */
  channel: Channel;
  /** The provider event itself, encoded (sealed at rest: attachment URLs can carry credentials). */
  payload: string;
  /** When the gateway received it. */
  receivedAt: Date;
}

/** Which kept items a query or a discard concerns. */
export interface UnroutedInboundFilter {
  /** Only those the instance reported. */
  instanceId?: string | undefined;
  /** Only those to this receiving address. */
  address?: string | undefined;
}

/** How many items are kept for one receiving address of one instance. */
export interface UnroutedAddressCount {
  /** The instance that reported them. */
  instanceId: string;
  /** The receiving address. */
  address: string;
  /** How many are kept. */
  count: number;
}

/** Inbound items no customer could receive, kept for delivery or an operator's decision. */
export interface UnroutedInboundRepository {
  /** Keeps an item. */
  insert(record: UnroutedInboundRecord): Promise<void>;
  /** The kept items matching `filter`, oldest first, at most `limit`. */
  list(filter: UnroutedInboundFilter, limit: number): Promise<UnroutedInboundRecord[]>;
  /** How many items match `filter`. */
  count(filter: UnroutedInboundFilter): Promise<number>;
  /** How many items are kept per instance and receiving address, the most first. */
  countByAddress(): Promise<UnroutedAddressCount[]>;
  /** Forgets one item; false when there was none with that id. */
  delete(id: string): Promise<boolean>;
  /** Forgets every item matching `filter`; answers how many. */
  deleteMatching(filter: UnroutedInboundFilter): Promise<number>;
  /** Forgets every item received before `before`; answers how many. */
  deleteBefore(before: Date): Promise<number>;
}
