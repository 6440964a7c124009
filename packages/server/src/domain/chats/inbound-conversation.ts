import { newUuid } from '../../ids';
import type {
  ConversationChannel,
  ConversationRecord,
  StoredParticipant,
} from '../../store/conversation-repository';
import type { Repositories } from '../../store/store';
import type { ReadyConversation } from './chat-views';

/** What an inbound event tells about the chat it happened in. */
export interface InboundChat {
  /** The receiving customer. */
  customerId: string;
  /** The instance that received it. */
  instanceId: string;
  /** The chat's channel. */
  channel: ConversationChannel;
  /** The provider chat id. */
  chatId: string;
  /** True for a group. */
  isGroup: boolean;
  /** The receiving number (the instance's address in the chat). */
  ownerAddress: string;
  /** Members the event shows (the sender, an added member). */
  members: readonly StoredParticipant[];
  /** The chat's name, when the provider knows it. */
  name?: string | undefined;
  /** When the event arrived. */
  at: Date;
}

/**
 * The conversation an inbound event happened in, created on first sight so the customer can
 * reply to it by `conversationId`; members the event shows are added, and a chat the instance
 * had left is live again (someone added it back, or it would receive nothing).
 */
export async function conversationForInbound(
  repos: Repositories,
  chat: InboundChat,
): Promise<ReadyConversation> {
  const existing = await repos.conversations.findByInstanceChat(
    chat.customerId,
    chat.instanceId,
    chat.chatId,
  );
  if (existing) {
    const missing = chat.members.filter(
      (member) => !existing.participants.some((known) => known.handle === member.handle),
    );
    if (missing.length === 0 && existing.leftAt === null) return existing as ReadyConversation;
    const participants = [...existing.participants, ...missing];
    await repos.conversations.update(chat.customerId, existing.id, {
      participants,
      leftAt: null,
      updatedAt: chat.at,
    });
    return { ...existing, participants, leftAt: null, chatId: chat.chatId };
  }
  const created: ConversationRecord = {
    id: newUuid(),
    customerId: chat.customerId,
    instanceId: chat.instanceId,
    channel: chat.channel,
    chatId: chat.chatId,
    ownerAddress: chat.ownerAddress,
    isGroup: chat.isGroup,
    name: chat.name ?? null,
    participants: uniqueMembers(chat.members),
    leftAt: null,
    readAt: null,
    createdAt: chat.at,
    updatedAt: chat.at,
  };
  await repos.conversations.insert(created);
  return created as ReadyConversation;
}

function uniqueMembers(members: readonly StoredParticipant[]): StoredParticipant[] {
  return [...new Map(members.map((member) => [member.handle, member])).values()];
}
