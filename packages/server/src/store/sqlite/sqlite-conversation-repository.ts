import { and, eq, type SQL } from 'drizzle-orm';
import type {
  ConversationPatch,
  ConversationRecord,
  ConversationRepository,
} from '../conversation-repository';
import type { SqliteExecutor } from './executor';
import { conversations } from './schema-chats';

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

/** {@link ConversationRepository} on SQLite. */
export class SqliteConversationRepository implements ConversationRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(conversation: ConversationRecord): Promise<void> {
    return this.run((db) => {
      db.insert(conversations).values(conversation).run();
    });
  }

  findById(customerId: string, id: string): Promise<ConversationRecord | undefined> {
    return this.run((db) => db.select().from(conversations).where(byId(customerId, id)).get());
  }

  findByChatId(customerId: string, chatId: string): Promise<ConversationRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(conversations)
        .where(and(eq(conversations.customerId, customerId), eq(conversations.chatId, chatId)))
        .orderBy(conversations.createdAt)
        .get(),
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
        .get(),
    );
  }

  listWhatsAppOfInstance(customerId: string, instanceId: string): Promise<ConversationRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(conversations)
        .where(ofInstance(customerId, instanceId, eq(conversations.channel, 'whatsapp')))
        .all(),
    );
  }

  update(customerId: string, id: string, patch: ConversationPatch): Promise<void> {
    return this.run((db) => {
      db.update(conversations).set(patch).where(byId(customerId, id)).run();
    });
  }

  delete(customerId: string, id: string): Promise<void> {
    return this.run((db) => {
      db.delete(conversations).where(byId(customerId, id)).run();
    });
  }
}
