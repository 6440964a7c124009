/** The kinds of data retention prunes, each with its own period. */
export type RetentionKind = 'eventLog' | 'deliveryLog' | 'inboundAttachments' | 'messageContent';

/** Periods in days per kind; null: kept (or, in an override, the deployment's period). */
export type RetentionPeriods = Record<RetentionKind, number | null>;

/** A customer's own retention periods, set by the operator (each shorter than the deployment's). */
export interface RetentionOverrideRecord {
  /** The customer. */
  customerId: string;
  /** Its periods; null where the deployment's applies. */
  periods: RetentionPeriods;
  /** Last change. */
  updatedAt: Date;
}

/** What one pruning batch did. */
export interface PruneBatch {
  /** Rows the batch looked at (fewer than the limit: nothing older is left). */
  scanned: number;
  /** Rows deleted or redacted. */
  removed: number;
  /** The creation time of the last row looked at: where the next batch of a sweep starts. */
  until: Date | null;
}

/** One batch's bounds: one customer's rows created in `[after, before)`, at most `limit`. */
export interface PruneWindow {
  /** The customer. */
  customerId: string;
  /** Rows created before this go. */
  before: Date;
  /** Rows created before this were already handled by this sweep. */
  after: Date;
  /** Most rows per batch. */
  limit: number;
}

/** Pruning by age, in small batches, and the per-customer periods. */
export interface RetentionRepository {
  /** Every customer id, deleted customers included (their data ages too). */
  customerIds(): Promise<string[]>;
  /** Every customer's override. */
  overrides(): Promise<RetentionOverrideRecord[]>;
  /** One customer's override, if any. */
  findOverride(customerId: string): Promise<RetentionOverrideRecord | undefined>;
  /** Creates or replaces a customer's override. */
  saveOverride(record: RetentionOverrideRecord): Promise<void>;
  /**
   * Deletes the window's oldest events, with their settled delivery-log entries; an event whose
   * delivery is still pending stays (the dispatcher needs it).
   */
  pruneEvents(window: PruneWindow): Promise<PruneBatch>;
  /** Deletes the settled delivery-log entries of the window's events (the events stay). */
  pruneDeliveries(window: PruneWindow): Promise<PruneBatch>;
  /**
   * Redacts the window's messages: body, media, mentions and attachment bytes go; the record,
   * its status and timeline stay. Scheduled and queued messages are left for later.
   */
  redactMessages(window: PruneWindow, at: Date): Promise<PruneBatch>;
  /** Deletes the window's stored inbound attachments. */
  pruneAttachments(window: PruneWindow): Promise<PruneBatch>;
  /**
   * Gives up to `pages` free pages back to the file system (SQLite's incremental vacuum) and
   * answers how many remain free (0 pages: only asks); 0 where space is not given back this way
   * (PostgreSQL, whose autovacuum does it; a SQLite database without incremental auto-vacuum).
   */
  reclaimSpace(pages: number): Promise<number>;
}
