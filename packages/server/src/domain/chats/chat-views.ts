import type {
  Chat,
  ConversationFragment,
  CreatedGroup,
  SenderFragment,
  WhatsAppParticipant,
} from '@switchboard/contract';
import type { ConversationRecord } from '../../store/conversation-repository';

/** A conversation whose provider chat exists. */
export type ReadyConversation = ConversationRecord & { chatId: string };

/** True when the provider chat of `conversation` exists. */
function _isReady(conversation: ConversationRecord): conversation is ReadyConversation {
  return conversation.chatId !== null;
}

/**
 * A chat's channel with its members as the API shows them: handles on imessage, participant
 * objects on whatsapp.
 */
function channelMembers(
  conversation: ConversationRecord,
):
  | { channel: 'whatsapp'; participants: WhatsAppParticipant[] }
  | { channel: 'imessage'; participants: string[] } {
  if (conversation.channel === 'whatsapp') {
    return {
      channel: 'whatsapp',
      participants: conversation.participants.map((participant) => ({ ...participant })),
    };
  }
  return {
    channel: 'imessage',
    participants: conversation.participants.map((participant) => participant.handle),
  };
}

/** The API shape of a chat: string participants on imessage, participant objects on whatsapp. */
export function toChatView(conversation: ReadyConversation): Chat {
  return {
    chatId: conversation.chatId,
    conversationId: conversation.id,
    isGroup: conversation.isGroup,
    ...(conversation.name === null ? {} : { name: conversation.name }),
    ...channelMembers(conversation),
  };
}

/** The creation answer: the chat plus its creation time. */
export function toCreatedGroupView(conversation: ReadyConversation): CreatedGroup {
  return { ...toChatView(conversation), createdAt: conversation.createdAt.toISOString() };
}

/** The `conversation` fragment of lifecycle and inbound events. */
export function toConversationFragment(conversation: ReadyConversation): ConversationFragment {
  return {
    id: conversation.id,
    chatId: conversation.chatId,
    isGroup: conversation.isGroup,
    name: conversation.name,
    ...channelMembers(conversation),
  };
}

/** The `sender` fragment of a chat-keyed send's lifecycle events. */
export function toSenderFragment(address: string, instanceName: string): SenderFragment {
  return { address, instanceName };
}
