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
export function isReady(conversation: ConversationRecord): conversation is ReadyConversation {
  return conversation.chatId !== null;
}

function participantObjects(conversation: ConversationRecord): WhatsAppParticipant[] {
  return conversation.participants.map((participant) => ({ ...participant }));
}

/** The API shape of a chat: string participants on imessage, participant objects on whatsapp. */
export function toChatView(conversation: ReadyConversation): Chat {
  const common = {
    chatId: conversation.chatId,
    conversationId: conversation.id,
    isGroup: conversation.isGroup,
    ...(conversation.name === null ? {} : { name: conversation.name }),
  };
  if (conversation.channel === 'whatsapp') {
    return { ...common, channel: 'whatsapp', participants: participantObjects(conversation) };
  }
  return {
    ...common,
    channel: 'imessage',
    participants: conversation.participants.map((participant) => participant.handle),
  };
}

/** The creation answer: the chat plus its creation time. */
export function toCreatedGroupView(conversation: ReadyConversation): CreatedGroup {
  return { ...toChatView(conversation), createdAt: conversation.createdAt.toISOString() };
}

/** The `conversation` fragment of lifecycle and inbound events. */
export function toConversationFragment(conversation: ReadyConversation): ConversationFragment {
  const common = {
    id: conversation.id,
    chatId: conversation.chatId,
    isGroup: conversation.isGroup,
    name: conversation.name,
  };
  if (conversation.channel === 'whatsapp') {
    return { ...common, channel: 'whatsapp', participants: participantObjects(conversation) };
  }
  return {
    ...common,
    channel: 'imessage',
    participants: conversation.participants.map((participant) => participant.handle),
  };
}

/** The `sender` fragment of a chat-keyed send's lifecycle events. */
export function toSenderFragment(address: string, instanceName: string): SenderFragment {
  return { address, instanceName };
}
