import { and, eq } from 'drizzle-orm';
import type {
  MessageReactionRecord,
  MessageReactionRepository,
} from '../message-reaction-repository';
import { changed, first, type PgExecutor } from './pg-executor';
import { messageReactions } from './pg-schema-messages';

/** {@link MessageReactionRepository} on PostgreSQL. */
export class PgMessageReactionRepository implements MessageReactionRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  set(reaction: MessageReactionRecord): Promise<void> {
    return this.run(async (db) => {
      await db
        .insert(messageReactions)
        .values(reaction)
        .onConflictDoUpdate({
          target: [messageReactions.messageId, messageReactions.sender],
          set: { reaction: reaction.reaction, createdAt: reaction.createdAt },
        });
    });
  }

  find(messageId: string, sender: string): Promise<MessageReactionRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(messageReactions)
        .where(and(eq(messageReactions.messageId, messageId), eq(messageReactions.sender, sender)))
        .limit(1)
        .then(first),
    );
  }

  remove(messageId: string, sender: string): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db
        .delete(messageReactions)
        .where(and(eq(messageReactions.messageId, messageId), eq(messageReactions.sender, sender)));
      return changed(result) > 0;
    });
  }
}
