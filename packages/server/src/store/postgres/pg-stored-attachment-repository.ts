import { and, asc, eq, isNull } from 'drizzle-orm';
import type {
  StoredAttachmentInfo,
  StoredAttachmentRecord,
  StoredAttachmentRepository,
} from '../stored-attachment-repository';
import { first, type PgExecutor } from './pg-executor';
import { storedAttachments } from './pg-schema-chats';

const infoColumns = {
  id: storedAttachments.id,
  customerId: storedAttachments.customerId,
  messageId: storedAttachments.messageId,
  position: storedAttachments.position,
  providerId: storedAttachments.providerId,
  mimeType: storedAttachments.mimeType,
  filename: storedAttachments.filename,
  totalBytes: storedAttachments.totalBytes,
  createdAt: storedAttachments.createdAt,
};

/** {@link StoredAttachmentRepository} on PostgreSQL. */
export class PgStoredAttachmentRepository implements StoredAttachmentRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(attachment: StoredAttachmentRecord): Promise<void> {
    return this.run(async (db) => {
      await db
        .insert(storedAttachments)
        .values({ ...attachment, data: Buffer.from(attachment.data) });
    });
  }

  findById(id: string): Promise<StoredAttachmentRecord | undefined> {
    return this.run((db) =>
      db.select().from(storedAttachments).where(eq(storedAttachments.id, id)).limit(1).then(first),
    );
  }

  listOfMessage(customerId: string, messageId: string): Promise<StoredAttachmentInfo[]> {
    return this.run((db) =>
      db
        .select(infoColumns)
        .from(storedAttachments)
        .where(
          and(
            eq(storedAttachments.customerId, customerId),
            eq(storedAttachments.messageId, messageId),
            isNull(storedAttachments.renditionOf),
          ),
        )
        .orderBy(asc(storedAttachments.position)),
    );
  }
}
