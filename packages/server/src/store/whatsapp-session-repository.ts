import type { WhatsAppSessionStatus } from '@switchboard/contract';

/** The WhatsApp session of one owned number, as stored. */
export interface WhatsAppSessionRecord {
  /** The owning customer. */
  customerId: string;
  /** The owned number, E.164. */
  phoneNumber: string;
  /** The instance that runs the session. */
  instanceId: string;
  /** The session state. */
  status: WhatsAppSessionStatus;
  /** The linked account, once known. */
  jid: string | null;
  /** The current raw QR string, while `qr_pending`. */
  qrCode: string | null;
  /** Why the session last disconnected. */
  disconnectReason: string | null;
  /** When the session last connected. */
  lastConnectedAt: Date | null;
  /** When the session last disconnected. */
  lastDisconnectedAt: Date | null;
  /** Last change. */
  updatedAt: Date;
}

/** WhatsApp sessions. Every query is scoped by customer. */
export interface WhatsAppSessionRepository {
  /** The session of the customer's number. */
  find(customerId: string, phoneNumber: string): Promise<WhatsAppSessionRecord | undefined>;
  /** Every session of the customer. */
  listByCustomer(customerId: string): Promise<WhatsAppSessionRecord[]>;
  /** Sessions in one of `statuses`, every customer (resumed at start-up). */
  listInStatus(statuses: readonly WhatsAppSessionStatus[]): Promise<WhatsAppSessionRecord[]>;
  /** Inserts or replaces the session of `(customerId, phoneNumber)`. */
  save(session: WhatsAppSessionRecord): Promise<void>;
}
