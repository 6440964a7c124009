import { and, asc, eq, type SQL } from 'drizzle-orm';
import type {
  ConversationPatch,
  ConversationRecord,
  ConversationRepository,
} from '../conversation-repository';
import { first, type PgExecutor } from './pg-executor';
import { conversations } from './pg-schema-chats';

/** The customer's conversation `id`. */
const byId = (customerId: string, id: string) =>
  and(eq(conversations.customerId, customerId), eq(conversations.id, id));

/** The customer's conversations on one instance that also match `condition`. */
const ofInstance = (customerId: string, instanceId: string, condition: SQL) =>
  and(
    eq(conversations.customerId, customerId),
    eq(conversations.instanceId, instanceId),
    condition,
  );

/** {@link ConversationRepository} on PostgreSQL. */
export class PgConversationRepository implements ConversationRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(conversation: ConversationRecord): Promise<void> {
    return this.run(async (db) => {
      await db.insert(conversations).values(conversation);
    });
  }

  findById(customerId: string, id: string): Promise<ConversationRecord | undefined> {
    return this.run((db) =>
      db.select().from(conversations).where(byId(customerId, id)).limit(1).then(first),
    );
  }

  findByChatId(customerId: string, chatId: string): Promise<ConversationRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(conversations)
        .where(and(eq(conversations.customerId, customerId), eq(conversations.chatId, chatId)))
        .orderBy(asc(conversations.createdAt), asc(conversations.id))
        .limit(1)
        .then(first),
    );
  }

  findByInstanceChat(
    customerId: string,
    instanceId: string,
    chatId: string,
  ): Promise<ConversationRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(conversations)
        .where(ofInstance(customerId, instanceId, eq(conversations.chatId, chatId)))
        .limit(1)
        .then(first),
    );
  }

  listWhatsAppOfInstance(customerId: string, instanceId: string): Promise<ConversationRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(conversations)
        .where(ofInstance(customerId, instanceId, eq(conversations.channel, 'whatsapp')))
        .orderBy(asc(conversations.chatId)),
    );
  }

  update(customerId: string, id: string, patch: ConversationPatch): Promise<void> {
    return this.run(async (db) => {
      await db.update(conversations).set(patch).where(byId(customerId, id));
    });
  }

  delete(customerId: string, id: string): Promise<void> {
    return this.run(async (db) => {
      await db.delete(conversations).where(byId(customerId, id));
    });
  }
}
