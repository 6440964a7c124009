import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, envelope, errors } from '../schemas/common';
import {
  DeleteResult,
  EditMessageRequest,
  ListMessagesQuery,
  ListScheduledMessagesQuery,
  Message,
  MessageList,
  MessagePathParams,
  ReactionRequest,
  ReactionResult,
  RetryResult,
  SendMessageResult,
} from '../schemas/message';
import { MessageEventList, MessageEventsQuery } from '../schemas/message-events';
import { MessageRouting } from '../schemas/routing-trace';
import { SendMessageHeaders, SendMessageRequest } from '../schemas/send-request';

const metadata = { tag: 'Messages' } satisfies RouteMetadata;

/** The Messages routes: send, list, get, and every operation on one message. */
export const messagesContract = c.router(
  {
    send: {
      method: 'POST',
      path: '/v1/messages',
      summary: 'Send a message',
      description:
        'Queues a message to `to` (E.164, e-mail style address or WhatsApp group JID) or into the chat `chatId`. Routing tries `imessage` then `sms` by default; `routing` changes the order and fallback. With `scheduledAt` the message waits until then (status `scheduled`). Answers 202 with the accepted message. A repeated idempotency key (the body’s `idempotencyKey` or the `Idempotency-Key` header) sends nothing again: it answers 200 with the message that key created as it is now (the `Message` of `GET /v1/messages/{id}`) and the header `Idempotent-Replayed: true`, or 409 `ALREADY_DELETED` when that message was deleted. The outcome arrives through `message.*` events.',
      headers: SendMessageHeaders,
      body: SendMessageRequest,
      responses: {
        200: envelope(Message),
        202: envelope(SendMessageResult),
        ...errors(
          'VALIDATION_ERROR',
          'INVALID_REQUEST',
          'INVALID_RECIPIENT',
          'INVALID_PHONE_NUMBER',
          'INVALID_SCHEDULED_AT',
          'SCHEDULED_IN_PAST',
          'SCHEDULED_TOO_FAR',
          'NO_DEFAULT_ADDRESS',
          'NO_CHANNEL_AVAILABLE',
          'FROM_INSTANCE_CANNOT_REACH',
          'GROUP_SMS_UNSUPPORTED',
          'FORBIDDEN',
          'ADDRESS_NOT_AUTHORIZED',
          'RECIPIENT_OPTED_OUT',
          'REPLY_NOT_FOUND',
          'CONVERSATION_NOT_FOUND',
          'CONVERSATION_NOT_READY',
          'PAYLOAD_TOO_LARGE',
          'UNSUPPORTED_MEDIA_TYPE',
          'ALREADY_DELETED',
        ),
      },
      metadata,
    },
    list: {
      method: 'GET',
      path: '/v1/messages',
      summary: 'List messages',
      description:
        'Outbound and inbound messages, newest first, with cursor pagination. Filter by `status` and `to`. Deleted messages and suppressed verification codes are never listed.',
      query: ListMessagesQuery,
      responses: {
        200: envelope(MessageList),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'INVALID_RECIPIENT'),
      },
      metadata,
    },
    listScheduled: {
      method: 'GET',
      path: '/v1/messages/scheduled',
      summary: 'List scheduled messages',
      description:
        'Messages in status `scheduled`, soonest due first, with cursor pagination; same shape as the message list.',
      query: ListScheduledMessagesQuery,
      responses: { 200: envelope(MessageList), ...errors('VALIDATION_ERROR') },
      metadata,
    },
    get: {
      method: 'GET',
      path: '/v1/messages/:id',
      summary: 'Get a message',
      description: 'The message with its status, channel and timeline.',
      pathParams: MessagePathParams,
      responses: { 200: envelope(Message), ...errors('NOT_FOUND') },
      metadata,
    },
    routing: {
      method: 'GET',
      path: '/v1/messages/:id/routing',
      summary: 'Get the routing trace of a message',
      description:
        'Why the message went where it went: every channel and instance considered or tried, oldest first, across the send and its retries, each with its decision (`skipped`, `tried`, `accepted`, `refused`, `failed`, `waited`, `blocked`) and reason (a capability answer and its age, a provider refusal and its code, an opt-out, a pacing wait), and the upstream id of the send that was accepted. Empty for inbound messages and sends not routed yet. Another customer’s message, or a deleted one, answers `NOT_FOUND`.',
      pathParams: MessagePathParams,
      responses: { 200: envelope(MessageRouting), ...errors('NOT_FOUND') },
      metadata,
    },
    listEvents: {
      method: 'GET',
      path: '/v1/messages/:id/events',
      summary: "List a message's events and their deliveries",
      description:
        'The events the message emitted (`message.queued`, `message.sent`, `message.delivered`, a reaction on it…), oldest first, with cursor pagination; each with every attempt to deliver it: per webhook (its id, URL and attempts, as its delivery log lists them) and to the message’s `callbackUrl`. Another customer’s message, or a deleted one, answers `NOT_FOUND`.',
      pathParams: MessagePathParams,
      query: MessageEventsQuery,
      responses: {
        200: envelope(MessageEventList),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata,
    },
    retry: {
      method: 'POST',
      path: '/v1/messages/:id/retry',
      summary: 'Retry a failed message',
      description:
        'Queues a `failed` message again with its original recipient, content, attachments, routing and instance. The id stays, `externalId` changes, `retryCount` grows by one; events follow as for a send. Any other status answers `INVALID_STATUS`.',
      pathParams: MessagePathParams,
      body: c.noBody(),
      responses: { 202: envelope(RetryResult), ...errors('NOT_FOUND', 'INVALID_STATUS') },
      metadata,
    },
    unsend: {
      method: 'POST',
      path: '/v1/messages/:id/unsend',
      summary: 'Unsend a message',
      description:
        'Retracts a sent iMessage (status `sent`, `delivered` or `read`); it becomes `unsent` and `message.unsent` fires. Other channels answer `CHANNEL_NOT_SUPPORTED`, other statuses `INVALID_STATUS`, a repeat `ALREADY_UNSENT`.',
      pathParams: MessagePathParams,
      body: c.noBody(),
      responses: {
        200: envelope(Message),
        ...errors(
          'CHANNEL_NOT_SUPPORTED',
          'INVALID_STATUS',
          'MISSING_EXTERNAL_ID',
          'NOT_FOUND',
          'ALREADY_UNSENT',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    edit: {
      method: 'PUT',
      path: '/v1/messages/:id',
      summary: 'Edit a message',
      description:
        'Replaces the text of a sent outbound iMessage. Fires `message.edited`, or `message.edit_failed` with 502 `EDIT_FAILED` / 504 `PROVIDER_TIMEOUT`.',
      pathParams: MessagePathParams,
      body: EditMessageRequest,
      responses: {
        200: envelope(Message),
        ...errors(
          'VALIDATION_ERROR',
          'CHANNEL_NOT_SUPPORTED',
          'INVALID_STATUS',
          'MISSING_EXTERNAL_ID',
          'NOT_FOUND',
          'PAYLOAD_TOO_LARGE',
          'UNSUPPORTED_MEDIA_TYPE',
          'EDIT_FAILED',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    react: {
      method: 'POST',
      path: '/v1/messages/:id/reactions',
      summary: 'React to a message',
      description:
        'Adds a tapback (`love`, `like`, `dislike`, `laugh`, `emphasize`, `question`) or removes one with its negative form (`-love`, …). One reaction per message per sender. imessage and whatsapp (where any other string, such as an emoji, passes through); sms answers `CHANNEL_NOT_SUPPORTED`. For inbound messages use the `messageId` of the event.',
      pathParams: MessagePathParams,
      body: ReactionRequest,
      responses: {
        200: envelope(ReactionResult),
        ...errors(
          'VALIDATION_ERROR',
          'CHANNEL_NOT_SUPPORTED',
          'MISSING_EXTERNAL_ID',
          'NOT_FOUND',
          'PAYLOAD_TOO_LARGE',
          'UNSUPPORTED_MEDIA_TYPE',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/messages/:id',
      summary: 'Delete a message',
      description:
        'Soft-deletes the message: it disappears from get and list, `message.deleted` fires, and a repeat answers `ALREADY_DELETED`. Nothing is retracted from the recipient (see unsend).',
      pathParams: MessagePathParams,
      body: c.noBody(),
      responses: { 200: envelope(DeleteResult), ...errors('NOT_FOUND', 'ALREADY_DELETED') },
      metadata,
    },
    cancelSchedule: {
      method: 'DELETE',
      path: '/v1/messages/:id/schedule',
      summary: 'Cancel a scheduled message',
      description:
        'Cancels a `scheduled` message before it is due: its status becomes `cancelled` and `message.schedule_cancelled` fires. Other statuses answer `NOT_SCHEDULED`.',
      pathParams: MessagePathParams,
      body: c.noBody(),
      responses: { 200: envelope(Message), ...errors('NOT_FOUND', 'NOT_SCHEDULED') },
      metadata,
    },
  },
  { commonResponses },
);
