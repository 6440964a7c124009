/** The reaction one sender has on one message. */
export interface MessageReactionRecord {
  /** The message reacted to. */
  messageId: string;
  /** The sender: an instance address, or a contact's address. */
  sender: string;
  /** The owning customer. */
  customerId: string;
  /** The reaction as applied (a tapback type or an emoji). */
  reaction: string;
  /** When it was set. */
  createdAt: Date;
}

/** Reactions: at most one per message per sender, a new one replacing the old. */
export interface MessageReactionRepository {
  /** Sets the sender's reaction on the message, replacing any previous one. */
  set(reaction: MessageReactionRecord): Promise<void>;
  /** The sender's reaction on the message. */
  find(messageId: string, sender: string): Promise<MessageReactionRecord | undefined>;
  /** Removes the sender's reaction from the message; false when there was none. */
  remove(messageId: string, sender: string): Promise<boolean>;
}
