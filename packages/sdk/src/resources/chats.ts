import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute } from '../internal/route-call';
import type { RouteBody, RouteData } from '../internal/route-types';

const routes = routeTable.chats;

/** The body of {@link Chats.createGroup}. */
export type ChatCreateGroupParams = RouteBody<Operations['chats']['createGroup']>;
/** The new group chat. */
export type ChatCreateGroupResponse = RouteData<Operations['chats']['createGroup']>;
/** A chat with its participants. */
export type ChatResponse = RouteData<Operations['chats']['get']>;
/** The body of {@link Chats.rename}. */
export type ChatRenameParams = RouteBody<Operations['chats']['rename']>;
/** The body of {@link Chats.addParticipant}. */
export type ChatAddParticipantParams = RouteBody<Operations['chats']['addParticipant']>;
/** The body of {@link Chats.typing}. */
export type ChatTypingParams = RouteBody<Operations['chats']['typing']>;

/**
 * Group chats and per-chat state. `chatId` is the provider chat identifier (such as
 * `iMessage;+;chat…` or `…@g.us`) or the chat's `conversationId`; the SDK URL-encodes it.
 */
export class Chats extends APIResource {
  /**
   * Creates a group on `imessage` (default) or `whatsapp` (which needs a `name`).
   * @example const group = await client.chats.createGroup({ participants: ['+14155550100'], name: 'Team' });
   */
  createGroup(
    params: ChatCreateGroupParams,
    options?: RequestOptions,
  ): APIPromise<ChatCreateGroupResponse> {
    return callRoute(this._transport, routes.createGroup, { body: params }, options);
  }

  /** A chat with its participants. */
  get(chatId: string, options?: RequestOptions): APIPromise<ChatResponse> {
    return callRoute(this._transport, routes.get, { params: { chatId } }, options);
  }

  /** Renames a group (emits `chat.title.changed`). */
  rename(
    chatId: string,
    params: ChatRenameParams,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['chats']['rename']>> {
    return callRoute(this._transport, routes.rename, { params: { chatId }, body: params }, options);
  }

  /** Adds a participant to a group (emits `chat.participant.added`); adding a member is a no-op. */
  addParticipant(
    chatId: string,
    params: ChatAddParticipantParams,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['chats']['addParticipant']>> {
    return callRoute(
      this._transport,
      routes.addParticipant,
      { params: { chatId }, body: params, idempotent: true },
      options,
    );
  }

  /** Removes a participant from a group (emits `chat.participant.left`). */
  removeParticipant(
    chatId: string,
    participantId: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['chats']['removeParticipant']>> {
    return callRoute(
      this._transport,
      routes.removeParticipant,
      { params: { chatId, participantId } },
      options,
    );
  }

  /** The sending instance leaves the group. */
  leave(
    chatId: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['chats']['leave']>> {
    return callRoute(
      this._transport,
      routes.leave,
      { params: { chatId }, idempotent: true },
      options,
    );
  }

  /** Marks a chat read (imessage only), sending read receipts when enabled. */
  markRead(
    chatId: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['chats']['markRead']>> {
    return callRoute(
      this._transport,
      routes.markRead,
      { params: { chatId }, idempotent: true },
      options,
    );
  }

  /** Marks a chat unread (imessage only). */
  markUnread(
    chatId: string,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['chats']['markUnread']>> {
    return callRoute(
      this._transport,
      routes.markUnread,
      { params: { chatId }, idempotent: true },
      options,
    );
  }

  /**
   * Shows (`start`) or clears (`stop`) the typing indicator.
   * @example await client.chats.typing(chatId, { status: 'start' });
   */
  typing(
    chatId: string,
    params: ChatTypingParams,
    options?: RequestOptions,
  ): APIPromise<RouteData<Operations['chats']['typing']>> {
    return callRoute(
      this._transport,
      routes.typing,
      { params: { chatId }, body: params, idempotent: true },
      options,
    );
  }
}
