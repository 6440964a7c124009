import type { Channel } from './store-types';

/** Whether a recipient receives messages from a sender. */
export type OptOutStatusValue = 'opted_out' | 'opted_in';

/** What recorded the state: a keyword the recipient texted, or the upstream's report. */
export type OptOutSourceValue = 'keyword' | 'upstream';

/** One recipient's opt-out state for one of a customer's sender numbers. */
export interface OptOutRecord {
  /** The customer. */
  customerId: string;
  /** The sender number (E.164). */
  sender: string;
  /** The recipient. */
  recipient: string;
  /** The current state. */
  status: OptOutStatusValue;
  /** What set it. */
  source: OptOutSourceValue;
  /** The word texted, upper-cased; null for an upstream report. */
  keyword: string | null;
  /** The channel it happened on. */
  channel: Channel;
  /** When the pair was first recorded. */
  createdAt: Date;
  /** When the state last changed. */
  updatedAt: Date;
}

/** A filter and page of the ledger. */
export interface OptOutQuery {
  /** Only this state; both when omitted. */
  status?: OptOutStatusValue;
  /** Only this sender. */
  sender?: string;
  /** Only this recipient. */
  recipient?: string;
  /** Rows to return. */
  limit: number;
  /** Continue after this row (most recently changed first). */
  after?: { updatedAt: number; sender: string; recipient: string };
}

/** The opt-out ledger. Every query is scoped by customer. */
export interface OptOutRepository {
  /** The state of (sender, recipient) for the customer, if ever recorded. */
  find(customerId: string, sender: string, recipient: string): Promise<OptOutRecord | undefined>;
  /** Inserts or replaces the state of the pair (keeping its `createdAt`). */
  upsert(record: OptOutRecord): Promise<void>;
  /** The customer's records, most recently changed first. */
  list(customerId: string, query: OptOutQuery): Promise<OptOutRecord[]>;
}
