/** How much an erasure removed, per kind of record. */
export interface ErasureCounts {
  /** Messages to or from the address, and those of the chats erased with it. */
  messages: number;
  /** Stored inbound attachment files (and their playable copies). */
  attachments: number;
  /** Events of the event log that carried the address or its messages. */
  events: number;
  /** Webhook and callback delivery-log entries of those events. */
  deliveries: number;
  /** Chats where the address was the only other party (deleted). */
  chats: number;
  /** Group chats the address was removed from (kept, without it). */
  groupsLeft: number;
  /** Reactions the address sent, or on erased messages. */
  reactions: number;
  /** Per-member receipts the address sent, or of erased messages. */
  receipts: number;
  /** Verification codes it sent. */
  signupCodes: number;
  /** FaceTime calls with it. */
  faceTimeCalls: number;
  /** Cached availability answers about it. */
  capabilityCache: number;
  /** Kept unrouted inbound items from or to it (operator erasures only). */
  unroutedInbound: number;
}

/** Which rows belong to the address being erased. */
export interface ErasureTarget {
  /** The customer whose data goes; null: every customer's (an operator's erasure). */
  customerId: string | null;
  /** Every exact form the address takes in a column (`+1415…`, `1415…@s.whatsapp.net`…). */
  forms: readonly string[];
  /** Lower-case substrings that preselect free-text columns (JSON payloads) in SQL. */
  needles: readonly string[];
  /** Whether a free text (an event payload, a participant list) names the address. */
  mentions(text: string): boolean;
}

/** The record an erasure leaves: who, when, how much, and a keyed hash instead of the address. */
export interface ContactErasureRecord {
  /** `era_<uuid v7>`. */
  id: string;
  /** The customer whose data went; null for an operator's erasure across customers. */
  customerId: string | null;
  /** HMAC-SHA-256 of the canonical address under the deployment's erasure key (hex). */
  addressHash: string;
  /** `api_key:<id>` or `operator`. */
  requestedBy: string;
  /** How much went. */
  counts: ErasureCounts;
  /** When. */
  createdAt: Date;
}

/** Forgetting a contact: its rows everywhere, and the record of having done so. */
export interface ContactErasureRepository {
  /**
   * Deletes (or, for group chats, edits) every row about the target and answers the counts.
   * Call inside a transaction so the erasure is all or nothing. The opt-out ledger is left alone.
   */
  erase(target: ErasureTarget): Promise<ErasureCounts>;
  /** Keeps the record of an erasure. */
  insert(record: ContactErasureRecord): Promise<void>;
  /** The erasures of one customer (or the operator's, with null), newest first, at most `limit`. */
  list(customerId: string | null, limit: number): Promise<ContactErasureRecord[]>;
}
