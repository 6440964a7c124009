import type { WhatsAppParticipant } from '@switchboard/contract';

/** The channels a conversation can live on: imessage (also SMS-relayed groups) and whatsapp. */
export type ConversationChannel = 'imessage' | 'whatsapp';

/**
 * A chat member as stored: the API's WhatsApp participant shape serves both channels (on imessage
 * the handle is the address, `isPhoneResolved` true and `admin` null).
 */
export type StoredParticipant = WhatsAppParticipant;

/** A chat (conversation) as stored. */
export interface ConversationRecord {
  /** The `conversationId` (UUID v7). */
  id: string;
  /** The owning customer. */
  customerId: string;
  /** The instance the chat is pinned to for its whole life. */
  instanceId: string;
  /** The chat's channel. */
  channel: ConversationChannel;
  /** The provider chat id; null while the provider has not created the chat yet. */
  chatId: string | null;
  /** The instance address in the chat (the creating or receiving number). */
  ownerAddress: string;
  /** True for a group. */
  isGroup: boolean;
  /** The display name, when it has one. */
  name: string | null;
  /** Members besides the instance. */
  participants: StoredParticipant[];
  /** When the instance left the group; the chat is then gone for the customer. */
  leftAt: Date | null;
  /** When the chat was last marked read on the instance's own device; null when unread. */
  readAt: Date | null;
  /** Creation time. */
  createdAt: Date;
  /** Last change. */
  updatedAt: Date;
}

/** The fields of a conversation that change. */
export type ConversationPatch = Partial<
  Pick<ConversationRecord, 'chatId' | 'name' | 'participants' | 'leftAt' | 'readAt' | 'updatedAt'>
>;

/** Chats. Every query is scoped by customer. */
export interface ConversationRepository {
  /** Stores a new conversation. */
  insert(conversation: ConversationRecord): Promise<void>;
  /** The customer's conversation with this id. */
  findById(customerId: string, id: string): Promise<ConversationRecord | undefined>;
  /** The customer's conversation with this provider chat id (any instance). */
  findByChatId(customerId: string, chatId: string): Promise<ConversationRecord | undefined>;
  /** The customer's conversation with this provider chat id on one instance. */
  findByInstanceChat(
    customerId: string,
    instanceId: string,
    chatId: string,
  ): Promise<ConversationRecord | undefined>;
  /** The customer's whatsapp conversations on an instance (for `@lid` resolution). */
  listWhatsAppOfInstance(customerId: string, instanceId: string): Promise<ConversationRecord[]>;
  /** Applies `patch`. */
  update(customerId: string, id: string, patch: ConversationPatch): Promise<void>;
  /** Removes a conversation whose provider chat was never created. */
  delete(customerId: string, id: string): Promise<void>;
}
