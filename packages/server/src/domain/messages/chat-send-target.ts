import type { Channel, ConversationFragment, SenderFragment } from '@switchboard/contract';
import type { MessageRecord } from '../../store/message-repository';
import type { UnitOfWork } from '../../store/store';

/** Where a chat-keyed send goes: the chat's instance, channel and provider chat. */
export interface ChatSendTarget {
  /** The chat's `conversationId`. */
  conversationId: string;
  /** The instance the chat is pinned to. */
  instanceId: string;
  /** The chat's channel; routing does not apply. */
  channel: Channel;
  /** The provider chat id (`iMessage;+;chat…`, `<id>@g.us`). */
  chatId: string;
  /** True for a group chat. */
  isGroup: boolean;
  /** The sender address: the instance address that owns the chat. */
  from: string;
}

/** The chat and sender fragments that lifecycle events of a chat-keyed send carry. */
export interface ChatEventFragments {
  /** The chat. */
  conversation: ConversationFragment;
  /** The sending instance. */
  sender: SenderFragment;
}

/**
 * The chats side of chat-keyed sends (and of their events' chat fragments), implemented by the
 * chats domain and handed to the send-target resolver and the message events when they are built.
 */
export interface ChatSendResolver {
  /**
   * The target of a send into the customer's chat `conversationId`, sent from `from` when given.
   * @throws {DomainError} CONVERSATION_NOT_FOUND, CONVERSATION_NOT_READY,
   * FROM_INSTANCE_CANNOT_REACH, GROUP_SMS_UNSUPPORTED, ADDRESS_NOT_AUTHORIZED.
   */
  resolve(
    customerId: string,
    conversationId: string,
    from: string | undefined,
  ): Promise<ChatSendTarget>;
  /** The fragments of a chat-keyed message's lifecycle events, read inside `tx`. */
  fragments(tx: UnitOfWork, message: MessageRecord): Promise<ChatEventFragments | undefined>;
}
