import { and, eq } from 'drizzle-orm';
import type {
  MessageReactionRecord,
  MessageReactionRepository,
} from '../message-reaction-repository';
import type { SqliteExecutor } from './executor';
import { messageReactions } from './schema-messages';

/** {@link MessageReactionRepository} on SQLite. */
export class SqliteMessageReactionRepository implements MessageReactionRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  set(reaction: MessageReactionRecord): Promise<void> {
    return this.run((db) => {
      db.insert(messageReactions)
        .values(reaction)
        .onConflictDoUpdate({
          target: [messageReactions.messageId, messageReactions.sender],
          set: { reaction: reaction.reaction, createdAt: reaction.createdAt },
        })
        .run();
    });
  }

  find(messageId: string, sender: string): Promise<MessageReactionRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(messageReactions)
        .where(and(eq(messageReactions.messageId, messageId), eq(messageReactions.sender, sender)))
        .get(),
    );
  }

  remove(messageId: string, sender: string): Promise<boolean> {
    return this.run((db) => {
      const result = db
        .delete(messageReactions)
        .where(and(eq(messageReactions.messageId, messageId), eq(messageReactions.sender, sender)))
        .run();
      return result.changes > 0;
    });
  }
}
