import type { ChatResponse, MessageSendResponse, Switchboard } from '@switchboard/sdk';

/** The group to create and what to do with it. */
export interface GroupChatOptions {
  /** The first members: E.164 numbers or e-mail style addresses. */
  participants: string[];
  /** The group's first name. */
  name: string;
  /** The name it is renamed to. */
  newName: string;
  /** The member added after creation. */
  newParticipant: string;
  /** The text sent into the group. */
  text: string;
  /** Called with a line describing each step. */
  log?: ((line: string) => void) | undefined;
}

/** What the walk-through left behind. */
export interface GroupChatResult {
  /** The chat as the API shows it after the changes. */
  chat: ChatResponse;
  /** The chat's stable id in Switchboard, used to send into it. */
  conversationId: string;
  /** The message sent into the group. */
  message: MessageSendResponse;
}

/**
 * Creates an iMessage group, renames it, adds a participant and sends a message into it by its
 * `conversationId`: the id Switchboard keeps for a chat whatever its provider calls it.
 * @example
 * await runGroupChat(new Switchboard(), { participants, name: 'Team', newName: 'Team 2', newParticipant, text: 'Hi' });
 */
export async function runGroupChat(
  client: Switchboard,
  options: GroupChatOptions,
): Promise<GroupChatResult> {
  const log = options.log ?? (() => {});

  const group = await client.chats.createGroup({
    participants: options.participants,
    name: options.name,
  });
  // A group whose id could not be stored has no conversationId (the spec's "omitted if
  // persistence failed"): it exists at the provider but cannot be used through Switchboard.
  const { conversationId } = group;
  if (conversationId === undefined) {
    throw new Error(`Group ${group.chatId} was created but not stored; create it again.`);
  }
  log(`created "${options.name}" (${group.chatId}, conversation ${conversationId})`);

  // Every chat route takes the provider's chat id or the conversationId.
  await client.chats.rename(conversationId, { name: options.newName });
  log(`renamed it to "${options.newName}"`);

  await client.chats.addParticipant(conversationId, { participant: options.newParticipant });
  log(`added ${options.newParticipant}`);

  const message = await client.messages.send({
    chatId: conversationId,
    content: { text: options.text },
  });
  log(`sent ${message.id} into the group`);

  const chat = await client.chats.get(conversationId);
  return { chat, conversationId, message };
}
