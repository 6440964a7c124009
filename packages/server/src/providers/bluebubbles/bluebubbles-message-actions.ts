import type { Channel } from '@switchboard/contract';
import {
  type ProviderChatRequest,
  type ProviderEditRequest,
  ProviderError,
  type ProviderMessageRef,
  type ProviderReactRequest,
  type ProviderTypingRequest,
  type ProviderUnsendRequest,
} from '@switchboard/provider-kit';
import { BlueBubblesApiError } from './bluebubbles-api';
import { changeErrorOf, providerErrorOf } from './bluebubbles-errors';
import { chatOf } from './bluebubbles-events';
import { addressOf, type BlueBubblesOperationDeps } from './bluebubbles-operation-deps';

/**
 * What the Mac does to messages and chats besides sending, through the Private API: edits,
 * unsends, tapbacks, the typing indicator and a chat's read state (iMessage only).
 */
export class BlueBubblesMessageActions {
  readonly #deps: BlueBubblesOperationDeps;

  /** The actions of one instance. */
  constructor(deps: BlueBubblesOperationDeps) {
    this.#deps = deps;
  }

  /** Edits a sent message (Private API, macOS 13+). */
  async edit(request: ProviderEditRequest): Promise<void> {
    this.#deps.assertStarted(request, 'edit');
    await this.#deps.mac.require(request.channel, 'editing', 13);
    try {
      await this.#deps.api.edit(request.message.externalId, {
        editedMessage: request.text,
        backwardsCompatibilityMessage:
          request.backwardsCompatibilityMessage ?? `Edited to “${request.text}”`,
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      throw changeErrorOf(error, request.channel, 'edit');
    }
  }
  /** Unsends a sent message (Private API, macOS 13+). */
  async unsend(request: ProviderUnsendRequest): Promise<void> {
    this.#deps.assertStarted(request, 'unsend');
    await this.#deps.mac.require(request.channel, 'unsending', 13);
    try {
      await this.#deps.api.unsend(request.message.externalId, {
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      throw changeErrorOf(error, request.channel, 'unsend');
    }
  }
  /**
   * Adds or removes a tapback (Private API). Emoji tapbacks need macOS 14+ and a BlueBubbles
   * Server newer than 1.9.9, whose `/message/react` takes only the twelve classic strings: a
   * server that cannot take them is not asked (docs/decisions/0401-bluebubbles-emoji-tapbacks.md).
   */
  async react(request: ProviderReactRequest): Promise<void> {
    this.#deps.assertStarted(request, 'reactions');
    const emoji = request.reaction.type === 'emoji';
    await this.#deps.mac.require(
      request.channel,
      emoji ? 'emoji tapbacks' : 'tapbacks',
      emoji ? 14 : 0,
    );
    if (emoji) await this.#deps.mac.requireEmojiTapbacks(request.channel);
    const name = request.reaction.type === 'emoji' ? request.reaction.emoji : request.reaction.type;
    const chatGuid = await this.#chatOfMessage(request.channel, request.message);
    try {
      await this.#deps.api.react({
        chatGuid,
        selectedMessageGuid: request.message.externalId,
        reaction: request.remove ? `-${name}` : name,
        partIndex: request.message.partIndex ?? 0,
      });
    } catch (error) {
      if (emoji && error instanceof BlueBubblesApiError && error.status === 400) {
        throw new ProviderError(
          'CHANNEL_NOT_SUPPORTED',
          'this BlueBubbles Server takes only the six classic tapbacks, not emoji tapbacks; update BlueBubbles Server',
          { channel: request.channel },
        );
      }
      throw providerErrorOf(error, request.channel, 'react');
    }
  }
  /** Starts or stops the typing indicator (Private API). */
  async typing(request: ProviderTypingRequest): Promise<void> {
    this.#deps.assertStarted(request, 'typing');
    await this.#deps.mac.require(request.channel, 'typing indicators', 0);
    const chatGuid = await this.#deps.chatFor(request.channel, request.to);
    if (chatGuid === undefined) {
      throw new ProviderError('NOT_FOUND', `there is no chat with ${addressOf(request.to)} yet`, {
        channel: request.channel,
      });
    }
    // Upstream's `DELETE /chat/:guid/typing` calls startTyping (bluebubbles-server@f2e2286
    // packages/server/src/server/api/http/api/v1/routers/chatRouter.ts:330-333): calling it would
    // start typing. Nothing else over REST stops it; the next send through BlueBubbles does
    // (api/interfaces/messageInterface.ts:83-92) and Messages drops it on its own
    // (api/http/api/v1/socketRoutes.ts:1007-1012). So "stop" asks nothing of the Mac
    // (docs/decisions/0400-bluebubbles-stop-typing.md).
    if (request.status === 'stop') return;
    await this.#deps.api.startTyping(chatGuid).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'typing');
    });
  }
  /** Marks a chat read (Private API). */
  async markRead(request: ProviderChatRequest): Promise<void> {
    this.#deps.assertStarted(request, 'mark read');
    await this.#deps.mac.require(request.channel, 'marking chats read', 0);
    await this.#deps.api.markChat(request.chatId, true).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'mark read');
    });
  }
  /** Marks a chat unread (Private API, macOS 13+). */
  async markUnread(request: ProviderChatRequest): Promise<void> {
    this.#deps.assertStarted(request, 'mark unread');
    await this.#deps.mac.require(request.channel, 'marking chats unread', 13);
    await this.#deps.api.markChat(request.chatId, false).catch((error: unknown) => {
      throw providerErrorOf(error, request.channel, 'mark unread');
    });
  }
  async #chatOfMessage(channel: Channel, message: ProviderMessageRef): Promise<string> {
    const chatGuid = await this.#deps.chatFor(channel, message.conversation);
    if (chatGuid !== undefined) return chatGuid;
    const found = await this.#deps.api.message(message.externalId).catch(() => null);
    const guid = found ? chatOf(found) : undefined;
    if (guid === undefined) {
      throw new ProviderError('NOT_FOUND', `the Mac does not know message ${message.externalId}`, {
        channel,
      });
    }
    return guid;
  }
}
