import {
  type ProviderChat,
  type ProviderChatRequest,
  type ProviderCreateGroupRequest,
  ProviderError,
  type ProviderParticipant,
  type ProviderParticipantRequest,
  type ProviderRenameGroupRequest,
} from '@switchboard/provider-kit';
import type { BlueBubblesChat } from './bluebubbles-api';
import { providerErrorOf } from './bluebubbles-errors';
import { channelOfChat, isGroupChat } from './bluebubbles-events';
import type { BlueBubblesOperationDeps } from './bluebubbles-operation-deps';

/** The Mac's chats: looking one up, and groups (created, renamed, members, left). */
export class BlueBubblesGroups {
  readonly #deps: BlueBubblesOperationDeps;

  /** The chats and groups of one instance. */
  constructor(deps: BlueBubblesOperationDeps) {
    this.#deps = deps;
  }

  /**
   * Creates a group by sending its first message (iMessage has no empty groups): the given text,
   * else the group's name, else 👋, answered as `firstMessage` when the caller wrote none. Needs
   * the Private API (AppleScript only starts one-to-one chats: bluebubbles-server@f2e2286
   * packages/server/src/server/api/interfaces/chatInterface.ts:306-311).
   */
  async createGroup(request: ProviderCreateGroupRequest): Promise<ProviderChat> {
    this.#deps.assertStarted(request, 'groups');
    if (request.participants.length < 2) {
      throw new ProviderError(
        'VALIDATION_ERROR',
        'participants: an iMessage group needs at least two other members (with one, Messages makes the direct chat)',
        { channel: request.channel },
      );
    }
    await this.#deps.mac.require(request.channel, 'creating groups', 0);
    const firstMessage = request.text ?? request.name ?? '👋';
    const chat = await this.#deps.api
      .newChat({
        addresses: [...request.participants],
        message: firstMessage,
        service: 'iMessage',
        method: 'private-api',
      })
      .catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'create the group');
      });
    if (request.name !== undefined && request.name !== (chat.displayName ?? '')) {
      await this.#deps.api.renameChat(chat.guid, request.name).catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'name the group');
      });
    }
    const view = chatView(chat);
    const name = request.name ?? view.name;
    return {
      ...view,
      ...(name ? { name } : {}),
      ...(request.text === undefined ? { firstMessage } : {}),
    };
  }
  /** The chat as the Mac knows it. */
  async getChat(request: ProviderChatRequest): Promise<ProviderChat | null> {
    this.#deps.assertStarted(request, 'chats');
    const chat = await this.#deps.api.chat(request.chatId).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'look up the chat');
    });
    return chat ? chatView(chat) : null;
  }
  /** Renames a group (Private API). */
  async renameGroup(request: ProviderRenameGroupRequest): Promise<void> {
    this.#deps.assertStarted(request, 'groups');
    await this.#deps.mac.require(request.channel, 'renaming groups', 0);
    await this.#deps.api.renameChat(request.chatId, request.name).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'rename the group');
    });
  }
  /** Adds a member (Private API). */
  async addParticipant(request: ProviderParticipantRequest): Promise<ProviderParticipant> {
    this.#deps.assertStarted(request, 'groups');
    await this.#deps.mac.require(request.channel, 'adding members', 0);
    await this.#deps.api
      .participant(request.chatId, request.participant, true)
      .catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'add the member');
      });
    return participantOf(request.participant);
  }
  /** Removes a member (Private API). */
  async removeParticipant(request: ProviderParticipantRequest): Promise<void> {
    this.#deps.assertStarted(request, 'groups');
    await this.#deps.mac.require(request.channel, 'removing members', 0);
    await this.#deps.api
      .participant(request.chatId, request.participant, false)
      .catch((error: unknown) => {
        throw providerErrorOf(error, request.channel, 'remove the member');
      });
  }
  /** Leaves a group (Private API). */
  async leaveGroup(request: ProviderChatRequest): Promise<void> {
    this.#deps.assertStarted(request, 'groups');
    await this.#deps.mac.require(request.channel, 'leaving groups', 0);
    await this.#deps.api.leaveChat(request.chatId).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'leave the group');
    });
  }
}

/** A BlueBubbles chat as the port describes it. */
function chatView(chat: BlueBubblesChat): ProviderChat {
  return {
    chatId: chat.guid,
    channel: channelOfChat(chat.guid, chat.participants?.[0]?.service),
    isGroup: chat.style === 43 || isGroupChat(chat.guid),
    ...(chat.displayName ? { name: chat.displayName } : {}),
    participants: (chat.participants ?? []).map((handle) => participantOf(handle.address)),
  };
}

/** An iMessage member: the handle is the address. */
function participantOf(address: string): ProviderParticipant {
  return { handle: address, isPhoneResolved: true, admin: null };
}
