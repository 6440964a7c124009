/** What one group member's device reported for a message. */
export type ReceiptStatus = 'delivered' | 'read';

/** Per-member receipts of group messages. */
export interface MessageReceiptRepository {
  /** Records that `recipient` reached `status` (a receipt never moves back from read). */
  record(messageId: string, recipient: string, status: ReceiptStatus, at: Date): Promise<void>;
  /** How many members reached at least `delivered`, and how many `read`. */
  counts(messageId: string): Promise<{ delivered: number; read: number }>;
}
