/**
 * The one registry of every error code Switchboard answers with: its HTTP status and its meaning.
 * The server, the SDK, the OpenAPI file and `docs/errors.md` all derive from this map.
 */
export const ERROR_CODES = {
  UNAUTHORIZED: {
    status: 401,
    description: 'Missing, malformed, unknown or revoked Bearer token.',
  },
  FORBIDDEN: {
    status: 403,
    description:
      'The API key has no associated customer, or a signed attachment URL is invalid or expired.',
  },
  ADDRESS_NOT_AUTHORIZED: {
    status: 403,
    description: "The `from` address is not one of the customer's authorized sender addresses.",
  },
  RECIPIENT_OPTED_OUT: {
    status: 403,
    description:
      'The recipient opted out of messages from this sender (replied STOP, or the carrier reported it); it opts in again by replying START. See `GET /v1/opt-outs`.',
  },
  NUMBER_NOT_OWNED: {
    status: 403,
    description: 'The WhatsApp number is not linked to the customer.',
  },
  NO_DEFAULT_ADDRESS: {
    status: 400,
    description: 'No `from` was given and the customer has no default authorized address.',
  },
  VALIDATION_ERROR: {
    status: 400,
    description:
      'The body, query or path failed validation; the message names the field. Also a send with no text, no mediaUrls and no attachments.',
  },
  INVALID_REQUEST: {
    status: 400,
    description:
      'Both or neither of `to` and `chatId`/`conversationId`, or different `chatId` and `conversationId` values.',
  },
  INVALID_RECIPIENT: {
    status: 400,
    description:
      '`to` is neither an E.164 phone number, an e-mail style address nor a WhatsApp group JID.',
  },
  INVALID_PHONE_NUMBER: {
    status: 400,
    description: 'A phone number is not E.164 (`+` followed by 2 to 15 digits).',
  },
  ATTACHMENT_TOO_LARGE: {
    status: 400,
    description:
      'An attachment is larger than every channel the send may use takes (whatsapp: image 16 MB, video 64 MB, audio 16 MB, documents 100 MB; imessage and sms: per instance, 100 MB and 5 MB by default); the message names the attachment and the limit. Also the `errorCode` of a message whose file, fetched from its URL, turned out too large.',
  },
  NOT_FOUND: { status: 404, description: 'The resource (or route) does not exist.' },
  REPLY_NOT_FOUND: { status: 404, description: 'The `replyTo` target message does not exist.' },
  CHANNEL_NOT_SUPPORTED: {
    status: 400,
    description:
      'The operation is not supported on the channel (reactions on sms, unsend and edit outside imessage, chat read/unread on whatsapp).',
  },
  SEND_POLICY_HOLD_EXPIRED: {
    status: 429,
    description:
      "The sender number's send policy (daily cap, cold-contact cap, warm-up, WhatsApp restriction, or the delivery watchdog's pause) held the message `queued` longer than the hold window (`SEND_POLICY_HOLD_WINDOW_MS`, 72 h by default): it failed without being sent. See `GET /v1/numbers/{phoneNumber}/send-policy`.",
  },
  NO_CHANNEL_AVAILABLE: {
    status: 400,
    description: 'No channel the caller allows can reach the recipient.',
  },
  FROM_INSTANCE_CANNOT_REACH: {
    status: 400,
    description: "`from` resolves to an instance other than the chat's.",
  },
  NAME_REQUIRED: { status: 400, description: 'A WhatsApp group was created without a name.' },
  CONVERSATION_NOT_FOUND: { status: 404, description: 'Unknown or foreign chat.' },
  CONVERSATION_NOT_READY: {
    status: 409,
    description: 'The conversation has no provider chat yet; retry later.',
  },
  GROUP_SMS_UNSUPPORTED: { status: 400, description: 'Group sends are not possible on sms.' },
  INVALID_STATUS: {
    status: 400,
    description: 'The operation is invalid for the current status (retry of a non-failed message).',
  },
  MISSING_EXTERNAL_ID: { status: 400, description: 'The message has no provider identifier.' },
  ALREADY_UNSENT: { status: 409, description: 'The message was already unsent.' },
  ALREADY_DELETED: { status: 409, description: 'The message was already deleted.' },
  WEBHOOK_NOT_FOUND: {
    status: 404,
    description: "The webhook does not exist or is not the customer's.",
  },
  WEBHOOK_DUPLICATE: {
    status: 409,
    description: 'Another webhook of the customer has the same URL and exact event set.',
  },
  WEBHOOK_NOT_CONFIGURED: {
    status: 404,
    description: 'Legacy single-webhook endpoints only: no active webhook is registered.',
  },
  NOT_SCHEDULED: { status: 400, description: 'The message is not in `scheduled` status.' },
  INVALID_SCHEDULED_AT: { status: 400, description: '`scheduledAt` is not an ISO 8601 datetime.' },
  SCHEDULED_IN_PAST: { status: 400, description: '`scheduledAt` is in the past.' },
  SCHEDULED_TOO_FAR: { status: 400, description: '`scheduledAt` is more than 30 days away.' },
  DEPRECATED: { status: 410, description: 'The endpoint has been removed.' },
  ALREADY_EXISTS: {
    status: 409,
    description:
      'Operator API: the value must be unique and is taken (a sender number or e-mail address assigned to a customer, an instance name).',
  },
  INSTANCE_IN_USE: {
    status: 409,
    description:
      'Operator API: the instance still serves sender numbers; withdraw them or delete with `force=true`.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    description: 'The path exists but does not accept this HTTP method.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    description: 'The request did not arrive whole in time; the connection is closed.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body is larger than allowed.' },
  HEADERS_TOO_LARGE: {
    status: 431,
    description:
      'The request line or headers are larger than the server accepts (16 KiB together): shorten the query string or the headers.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    description: 'A request with a body must use `Content-Type: application/json`.',
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    description: 'Too many requests for this API key; see the `Retry-After` header.',
  },
  PROVIDER_TIMEOUT: { status: 504, description: 'The upstream provider timed out.' },
  EDIT_FAILED: { status: 502, description: 'The edit could not complete.' },
  IMESSAGE_SEND_FAILED: {
    status: 500,
    description: 'The iMessage provider reported a delivery error.',
  },
  MEDIA_NOT_AN_IMAGE: {
    status: 400,
    description:
      'Only as a message `errorCode`: a `content.mediaUrls` URL served bytes that are not a JPEG, PNG, GIF or WebP image (told by their first bytes when the gateway fetched them at delivery, whatever the URL or its `Content-Type` said). Nothing was sent; send other files with `attachments[]`.',
  },
  MEDIA_CONVERSION_FAILED: {
    status: 500,
    description:
      'Only as a message `errorCode`: an attachment had to be converted for its channel (a voice memo, a video for whatsapp) and could not be (no encoder available, the file unreadable, the conversion too slow or too large). The message is never sent in a format the recipient cannot play.',
  },
  INTERNAL_ERROR: { status: 500, description: 'An unexpected error.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    description:
      'The server is shutting down and takes no new requests, the database cannot be used right now (locked by another process, read-only or full disk; nothing was changed), or (provider ingress) the instance is disabled; retry after `Retry-After` seconds.',
  },
  NOT_IMPLEMENTED: {
    status: 501,
    description: 'The operation is part of the API but this server does not implement it yet.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

/** Every error code of the API. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The HTTP status that goes with an error code. */
export type ErrorStatus<C extends ErrorCode = ErrorCode> = (typeof ERROR_CODES)[C]['status'];

/** All error codes as a tuple, in registry order. */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** True when `value` is one of the registered error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
