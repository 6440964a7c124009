import type { MessageRecord } from '../../store/message-repository';
import type { Repositories } from '../../store/store';
import { DomainError } from '../domain-error';
import type {
  ChatEventFragments,
  ChatSendResolver,
  ChatSendTarget,
} from '../messages/chat-send-target';
import { channelInstanceOf } from '../numbers/channel-instance';
import { type ReadyConversation, toConversationFragment, toSenderFragment } from './chat-views';

/** An SMS group relayed by an iMessage instance (BlueBubbles' `SMS;+;chat…`): no group sends. */
const SMS_GROUP_CHAT_ID = /^SMS;\+;/;

/**
 * The chats side of sends keyed by `chatId`/`conversationId` (spec rule 3), plugged into the
 * message service: the chat pins channel and instance, so routing does not apply.
 */
export class ConversationSendResolver implements ChatSendResolver {
  /** A resolver reading chats from `repos`. */
  constructor(private readonly repos: Repositories) {}

  /**
   * The chat must be the customer's (else 404 `CONVERSATION_NOT_FOUND`), have its provider chat
   * (else 409 `CONVERSATION_NOT_READY`) and not be an SMS group (400 `GROUP_SMS_UNSUPPORTED`); a
   * `from` must be the customer's (403 `ADDRESS_NOT_AUTHORIZED`) and served by the chat's instance
   * (400 `FROM_INSTANCE_CANNOT_REACH`).
   */
  async resolve(
    customerId: string,
    conversationId: string,
    from: string | undefined,
  ): Promise<ChatSendTarget> {
    const conversation = await this.repos.conversations.findById(
      customerId,
      conversationId.toLowerCase(),
    );
    if (!conversation || conversation.leftAt !== null) {
      throw new DomainError('CONVERSATION_NOT_FOUND', `No chat ${conversationId} exists`);
    }
    if (conversation.chatId === null) {
      throw new DomainError(
        'CONVERSATION_NOT_READY',
        `The chat ${conversationId} is still being created; retry shortly`,
      );
    }
    if (conversation.isGroup && SMS_GROUP_CHAT_ID.test(conversation.chatId)) {
      throw new DomainError(
        'GROUP_SMS_UNSUPPORTED',
        `${conversation.chatId} is an SMS group: group sends are not supported on sms`,
      );
    }
    let sender = conversation.ownerAddress;
    if (from !== undefined) {
      const number = await this.repos.numbers.findByAddress(customerId, from);
      if (!number) {
        throw new DomainError(
          'ADDRESS_NOT_AUTHORIZED',
          `${from} is not one of your sender addresses`,
        );
      }
      if (channelInstanceOf(number, conversation.channel) !== conversation.instanceId) {
        throw new DomainError(
          'FROM_INSTANCE_CANNOT_REACH',
          `${from} is served by another instance than the chat's; omit from or use ${conversation.ownerAddress}`,
        );
      }
      sender = from;
    }
    return {
      conversationId: conversation.id,
      instanceId: conversation.instanceId,
      channel: conversation.channel,
      chatId: conversation.chatId,
      isGroup: conversation.isGroup,
      from: sender,
    };
  }

  /**
   * The chat and sender fragments of a chat-keyed message's lifecycle event, read when the event
   * is recorded, so members added or resolved since the send show as they are now.
   */
  async fragments(
    tx: Repositories,
    message: MessageRecord,
  ): Promise<ChatEventFragments | undefined> {
    if (message.conversationId === null) return undefined;
    const conversation = await tx.conversations.findById(
      message.customerId,
      message.conversationId,
    );
    if (!conversation || conversation.chatId === null) return undefined;
    const instance = await tx.instances.findById(conversation.instanceId);
    return {
      conversation: toConversationFragment(conversation as ReadyConversation),
      sender: toSenderFragment(message.from, instance?.name ?? conversation.instanceId),
    };
  }
}
