import { eq, sql } from 'drizzle-orm';
import type { MessageReceiptRepository, ReceiptStatus } from '../message-receipt-repository';
import type { SqliteExecutor } from './executor';
import { messageReceipts } from './schema-messages';

/** {@link MessageReceiptRepository} on SQLite. */
export class SqliteMessageReceiptRepository implements MessageReceiptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  record(messageId: string, recipient: string, status: ReceiptStatus, at: Date): Promise<void> {
    return this.run((db) => {
      db.insert(messageReceipts)
        .values({ messageId, recipient, status, at })
        .onConflictDoUpdate({
          target: [messageReceipts.messageId, messageReceipts.recipient],
          // `read` is final: a late `delivered` does not undo it.
          set: {
            status: sql`case when ${messageReceipts.status} = 'read' then 'read' else excluded.status end`,
            at,
          },
        })
        .run();
    });
  }

  counts(messageId: string): Promise<{ delivered: number; read: number }> {
    return this.run((db) => {
      const row = db
        .select({
          delivered: sql<number>`count(*)`,
          read: sql<number>`sum(case when ${messageReceipts.status} = 'read' then 1 else 0 end)`,
        })
        .from(messageReceipts)
        .where(eq(messageReceipts.messageId, messageId))
        .get();
      return { delivered: row?.delivered ?? 0, read: row?.read ?? 0 };
    });
  }
}
