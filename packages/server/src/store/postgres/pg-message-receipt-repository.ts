import { eq, sql } from 'drizzle-orm';
import type { MessageReceiptRepository, ReceiptStatus } from '../message-receipt-repository';
import type { PgExecutor } from './pg-executor';
import { messageReceipts } from './pg-schema-messages';

/** {@link MessageReceiptRepository} on PostgreSQL. */
export class PgMessageReceiptRepository implements MessageReceiptRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  record(messageId: string, recipient: string, status: ReceiptStatus, at: Date): Promise<void> {
    return this.run(async (db) => {
      await db
        .insert(messageReceipts)
        .values({ messageId, recipient, status, at })
        .onConflictDoUpdate({
          target: [messageReceipts.messageId, messageReceipts.recipient],
          // `read` is final: a late `delivered` does not undo it.
          set: {
            status: sql`case when ${messageReceipts.status} = 'read' then 'read' else excluded.status end`,
            at,
          },
        });
    });
  }

  counts(messageId: string): Promise<{ delivered: number; read: number }> {
    return this.run(async (db) => {
      const [row] = await db
        .select({
          delivered: sql<number>`count(*)`.mapWith(Number),
          read: sql<number>`count(*) filter (where ${messageReceipts.status} = 'read')`.mapWith(
            Number,
          ),
        })
        .from(messageReceipts)
        .where(eq(messageReceipts.messageId, messageId));
      return { delivered: row?.delivered ?? 0, read: row?.read ?? 0 };
    });
  }
}
