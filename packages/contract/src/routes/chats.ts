import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import {
  AddParticipantRequest,
  AddParticipantResult,
  Chat,
  ChatParticipantPathParams,
  ChatPathParams,
  CreatedGroup,
  CreateGroupRequest,
  LeaveChatResult,
  MarkChatReadResult,
  MarkChatUnreadResult,
  RemoveParticipantResult,
  RenameChatRequest,
  RenameChatResult,
  TypingRequest,
  TypingResult,
} from '../schemas/chat';
import { commonResponses, envelope, errors } from '../schemas/common';

const metadata = { tag: 'Chats' } satisfies RouteMetadata;

const CHAT_ID_NOTE =
  '`{chatId}` is the URL-encoded provider chat identifier or the chat’s `conversationId`; an unknown or foreign chat answers 404 `CONVERSATION_NOT_FOUND`.';

// A group-only operation on a 1:1 chat answers VALIDATION_ERROR, the code for a request that
// cannot apply to the resource it names (see docs/decisions/0034-group-only-operations-on-a-1-1-chat.md).
const GROUP_ONLY_NOTE = 'Groups only: on a 1:1 chat it answers 400 `VALIDATION_ERROR`.';

/** The chat and group routes (`/v1/chats`), on imessage and whatsapp. */
export const chatsContract = c.router(
  {
    createGroup: {
      method: 'POST',
      path: '/groups',
      summary: 'Create a group chat',
      description:
        "Creates a group with the given participants on `imessage` (default) or `whatsapp`, from the `from` instance or the customer's default instance for the channel. A whatsapp group needs a `name` (`NAME_REQUIRED`) and stays pinned to its instance. An imessage group needs at least two other members (with one, Messages makes the direct chat: 400 `VALIDATION_ERROR`) and a first message, since iMessage has no empty group: the group's `name`, or 👋 when it has none, is sent to its members and answered as `firstMessage`. Creating, renaming and changing members of imessage groups needs the BlueBubbles Private API (`CHANNEL_NOT_SUPPORTED` with the reason otherwise).",
      body: CreateGroupRequest,
      responses: {
        201: envelope(CreatedGroup),
        ...errors(
          'VALIDATION_ERROR',
          'CHANNEL_NOT_SUPPORTED',
          'INVALID_PHONE_NUMBER',
          'NAME_REQUIRED',
          'NO_DEFAULT_ADDRESS',
          'FORBIDDEN',
          'ADDRESS_NOT_AUTHORIZED',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    get: {
      method: 'GET',
      path: '/:chatId',
      pathParams: ChatPathParams,
      summary: 'Get a chat',
      description: `The chat with its participants: strings on imessage, participant objects on whatsapp. ${CHAT_ID_NOTE}`,
      responses: { 200: envelope(Chat), ...errors('VALIDATION_ERROR', 'CONVERSATION_NOT_FOUND') },
      metadata,
    },
    rename: {
      method: 'PUT',
      path: '/:chatId/name',
      pathParams: ChatPathParams,
      summary: 'Rename a group',
      description: `Sets the group's display name and emits \`chat.title.changed\`. ${GROUP_ONLY_NOTE} ${CHAT_ID_NOTE}`,
      body: RenameChatRequest,
      responses: {
        200: envelope(RenameChatResult),
        ...errors('VALIDATION_ERROR', 'CONVERSATION_NOT_FOUND', 'PROVIDER_TIMEOUT'),
      },
      metadata,
    },
    addParticipant: {
      method: 'POST',
      path: '/:chatId/participants',
      pathParams: ChatPathParams,
      summary: 'Add a participant',
      description: `Adds a phone number (E.164) or, on imessage, an account identifier to the group and emits \`chat.participant.added\`. Adding a current member changes nothing and emits nothing. ${GROUP_ONLY_NOTE} ${CHAT_ID_NOTE}`,
      body: AddParticipantRequest,
      responses: {
        200: envelope(AddParticipantResult),
        ...errors(
          'VALIDATION_ERROR',
          'INVALID_PHONE_NUMBER',
          'CONVERSATION_NOT_FOUND',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    removeParticipant: {
      method: 'DELETE',
      path: '/:chatId/participants/:participantId',
      pathParams: ChatParticipantPathParams,
      summary: 'Remove a participant',
      description: `Removes a member from the group and emits \`chat.participant.left\`. Someone who is not a member answers 404 \`NOT_FOUND\`. ${GROUP_ONLY_NOTE} ${CHAT_ID_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(RemoveParticipantResult),
        ...errors('VALIDATION_ERROR', 'CONVERSATION_NOT_FOUND', 'NOT_FOUND', 'PROVIDER_TIMEOUT'),
      },
      metadata,
    },
    leave: {
      method: 'POST',
      path: '/:chatId/leave',
      pathParams: ChatPathParams,
      summary: 'Leave a group',
      description: `The sending instance leaves the group and stops receiving its messages. ${GROUP_ONLY_NOTE} ${CHAT_ID_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(LeaveChatResult),
        ...errors('VALIDATION_ERROR', 'CONVERSATION_NOT_FOUND', 'PROVIDER_TIMEOUT'),
      },
      metadata,
    },
    markRead: {
      method: 'POST',
      path: '/:chatId/read',
      pathParams: ChatPathParams,
      summary: 'Mark a chat read',
      description: `Marks the chat read, sending read receipts when the instance has them on. imessage only: a whatsapp chat answers 400 \`CHANNEL_NOT_SUPPORTED\`. ${CHAT_ID_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(MarkChatReadResult),
        ...errors(
          'VALIDATION_ERROR',
          'CHANNEL_NOT_SUPPORTED',
          'CONVERSATION_NOT_FOUND',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    markUnread: {
      method: 'POST',
      path: '/:chatId/unread',
      pathParams: ChatPathParams,
      summary: 'Mark a chat unread',
      description: `Marks the chat unread (needs desktop OS 13+ on the sender instance). imessage only: a whatsapp chat answers 400 \`CHANNEL_NOT_SUPPORTED\`. ${CHAT_ID_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(MarkChatUnreadResult),
        ...errors(
          'VALIDATION_ERROR',
          'CHANNEL_NOT_SUPPORTED',
          'CONVERSATION_NOT_FOUND',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    typing: {
      method: 'POST',
      path: '/:chatId/typing',
      pathParams: ChatPathParams,
      summary: 'Start or stop typing',
      description: `Shows or clears the typing indicator in the chat, on both channels (whatsapp: \`start\` is composing, \`stop\` is paused). The indicator times out on its own after a short interval. ${CHAT_ID_NOTE}`,
      body: TypingRequest,
      responses: {
        200: envelope(TypingResult),
        ...errors('VALIDATION_ERROR', 'CONVERSATION_NOT_FOUND', 'PROVIDER_TIMEOUT'),
      },
      metadata,
    },
  },
  { pathPrefix: '/v1/chats', commonResponses, strictStatusCodes: true },
);
