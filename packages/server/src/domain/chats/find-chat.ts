import type { ConversationRecord } from '../../store/conversation-repository';
import type { Repositories } from '../../store/store';
import { DomainError } from '../domain-error';
import type { ReadyConversation } from './chat-views';

/** A conversationId: provider chat ids always contain `;` or `@`, so the two never collide. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customer's conversation named by a provider chat id or a conversationId, if any. */
async function lookupConversation(
  repos: Repositories,
  customerId: string,
  chatIdOrConversationId: string,
): Promise<ConversationRecord | undefined> {
  return UUID_PATTERN.test(chatIdOrConversationId)
    ? repos.conversations.findById(customerId, chatIdOrConversationId.toLowerCase())
    : repos.conversations.findByChatId(customerId, chatIdOrConversationId);
}

/**
 * The customer's chat for a chat route: by provider chat id or conversationId. Another
 * customer's chat, a chat the instance left and a group still being created are all "not found".
 * @throws {DomainError} CONVERSATION_NOT_FOUND.
 */
export async function findChat(
  repos: Repositories,
  customerId: string,
  chatIdOrConversationId: string,
): Promise<ReadyConversation> {
  const conversation = await lookupConversation(repos, customerId, chatIdOrConversationId);
  if (!conversation || conversation.chatId === null || conversation.leftAt !== null) {
    throw new DomainError('CONVERSATION_NOT_FOUND', `No chat ${chatIdOrConversationId} exists`);
  }
  return conversation as ReadyConversation;
}
