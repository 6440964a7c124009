/**
 * Where the real BlueBubbles Server does what the fake does, read from its source at commit
 * f2e2286 (version 1.9.9), not from our adapter's reading of it. Two sections: what the fake
 * reproduces (each route it serves, each event it posts, each default, each quirk), and what the
 * adapter relies on (each request it makes and each field it reads). `fake-bluebubbles-fidelity.test.ts`
 * fails when a route or event of the fake has no row here, or a row names one the fake lacks.
 *
 * The fake registers its routes one module per route group of the upstream's
 * `HttpRoutes.api.routeGroups` (bluebubbles-server@f2e2286
 * packages/server/src/server/api/http/api/v1/httpRoutes.ts), so a route is found where upstream
 * declares it; the move changed no behaviour, and each route's row below cites its lines:
 * - `fake-bluebubbles-server-routes.ts`: groups "General" (`ping`, httpRoutes.ts:66-70) and
 *   "Server" (`server/info`, httpRoutes.ts:142-146);
 * - `fake-bluebubbles-attachment-routes.ts`: group "Attachment" (httpRoutes.ts:230-238, and the
 *   `:guid/download` route), with the conversions `AttachmentRouter.download` applies;
 * - `fake-bluebubbles-chat-routes.ts`: group "Chat" (httpRoutes.ts:332-409);
 * - `fake-bluebubbles-message-routes.ts`: group "Message" (from httpRoutes.ts:446);
 * - `fake-bluebubbles-handle-routes.ts`: group "Handle" (availability, query, focus; FaceTime
 *   availability is a handle route upstream too);
 * - `fake-bluebubbles-webhook-routes.ts`: group "Webhook" (`WEBHOOK_ROUTER`).
 */

/** What a row is about. */
type FidelityKind = 'route' | 'event' | 'default' | 'quirk' | 'adapter';

/** One behaviour and where the upstream does it. */
export interface FidelityRow {
  /** A route (`METHOD /api/v1/path`, as the fake registers it), an event type, a setting, or a quirk. */
  kind: FidelityKind;
  /** The route or event type for `route`/`event` rows; a short name otherwise. */
  subject: string;
  /** What the fake (or the adapter) does, in a sentence. */
  behaviour: string;
  /** Where the upstream does it: `bluebubbles-server@f2e2286 <path>:<line>` (or a docs URL). */
  upstream: readonly string[];
}

const SRC = 'packages/server/src/server/';
const ROUTES = `${SRC}api/http/api/v1/httpRoutes.ts`;
const CHAT_ROUTER = `${SRC}api/http/api/v1/routers/chatRouter.ts`;
const MESSAGE_ROUTER = `${SRC}api/http/api/v1/routers/messageRouter.ts`;
const MESSAGE_VALIDATOR = `${SRC}api/http/api/v1/validators/messageValidator.ts`;
const HANDLE_ROUTER = `${SRC}api/http/api/v1/routers/handleRouter.ts`;
const WEBHOOK_ROUTER = `${SRC}api/http/api/v1/routers/webhookRouter.ts`;
const CHAT_INTERFACE = `${SRC}api/interfaces/chatInterface.ts`;
const MESSAGE_INTERFACE = `${SRC}api/interfaces/messageInterface.ts`;
const FACETIME_HANDLER = `${SRC}api/privateApi/eventHandlers/PrivateApiFaceTimeStatusHandler.ts`;
const POLLER = `${SRC}databases/imessage/pollers/MessagePoller.ts`;
const SERVER = `${SRC}index.ts`;
const SERIALIZER = `${SRC}api/serializers/MessageSerializer.ts`;
const PAPI_MIDDLEWARE = `${SRC}api/http/api/v1/middleware/privateApiMiddleware.ts`;

/** A citation of the upstream at the pinned commit. */
function at(path: string, lines: string): string {
  return `bluebubbles-server@f2e2286 ${path}:${lines}`;
}

/** Section 1: what the fake reproduces. */
export const FAKE_FIDELITY: readonly FidelityRow[] = [
  // ---- routes ----
  {
    kind: 'route',
    subject: 'GET /api/v1/ping',
    behaviour: '200 `{status, message: "Ping received!", data: "pong"}`',
    upstream: [at(ROUTES, '66-70'), at(`${SRC}api/http/api/v1/routers/generalRouter.ts`, '6-7')],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/server/info',
    behaviour:
      '`{computer_id, os_version, server_version, private_api, proxy_service, helper_connected, detected_icloud, detected_imessage, macos_time_sync, local_ipv4s, local_ipv6s}`',
    upstream: [at(ROUTES, '142-146'), at(`${SRC}api/interfaces/generalInterface.ts`, '13-27')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/message/text',
    behaviour:
      'method defaults to apple-script, forced to private-api by effectId/subject/selectedMessageGuid; apple-script needs tempGuid and message; a tempGuid in the send cache is refused 400; answers the message with tempGuid, or 500 "Message Send Error" with the failed message as data; a send clears the typing the API started in the chat',
    upstream: [
      at(MESSAGE_VALIDATOR, '69-119'),
      at(MESSAGE_ROUTER, '237-324'),
      at(MESSAGE_INTERFACE, '83-92'),
    ],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/message/attachment',
    behaviour:
      'multipart `attachment` file + `name` (required) + tempGuid (apple-script); an empty file is 400; `isAudioMessage` reaches Messages only through the Private API, AppleScript sends a plain file; an MP3 sent as audio is renamed .caf',
    upstream: [
      at(MESSAGE_VALIDATOR, '121-165'),
      at(MESSAGE_ROUTER, '326-399'),
      at(MESSAGE_INTERFACE, '154-158'),
      at(`${SRC}api/privateApi/apis/PrivateApiAttachment.ts`, '31-47'),
      at(`${SRC}api/apple/actions.ts`, '42-54'),
    ],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/attachment/upload',
    behaviour:
      'behind the Private API middleware; stores the `attachment` file and answers its path for `/message/multipart`',
    upstream: [
      at(ROUTES, '230-238'),
      at(`${SRC}api/http/api/v1/validators/attachmentValidator.ts`, '30-40'),
    ],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/message/multipart',
    behaviour:
      'parts `{partIndex, text | attachment+name}` validated one by one; an attachment must have been uploaded; sent through the Private API as one message',
    upstream: [
      at(MESSAGE_VALIDATOR, '208-256'),
      at(MESSAGE_ROUTER, '401-486'),
      at(MESSAGE_INTERFACE, '528-560'),
    ],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/message/react',
    behaviour:
      'Private API middleware first (500 before validation), then `reaction` must be one of the twelve classic strings (400 "The selected reaction is invalid."): no emoji; an unknown selected message is 400 "Selected message does not exist!"',
    upstream: [
      at(ROUTES, '446-452'),
      at(MESSAGE_VALIDATOR, '167-177'),
      at(MESSAGE_INTERFACE, '27-40'),
      at(MESSAGE_ROUTER, '488-493'),
    ],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/message/:guid/edit',
    behaviour:
      'editedMessage and backwardsCompatibilityMessage required; Private API; macOS 13+ (the refusal says "Unsend", as upstream)',
    upstream: [
      at(MESSAGE_VALIDATOR, '179-188'),
      at(MESSAGE_INTERFACE, '349-356'),
      at(MESSAGE_ROUTER, '604-668'),
    ],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/message/:guid/unsend',
    behaviour: 'Private API; macOS 13+; answers the unsent message',
    upstream: [at(MESSAGE_INTERFACE, '320-322'), at(MESSAGE_ROUTER, '544-601')],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/message/:guid',
    behaviour:
      '404 "Message does not exist!"; `chats` and `attachments` only when `with` names them (chats, attachment)',
    upstream: [at(MESSAGE_ROUTER, '73-110')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/message/query',
    behaviour:
      '`after`/`before` on dateCreated, `limit` 1–1000, `sort` ASC|DESC, `with` chats; answers `{data, metadata: {offset, limit, total, count}}`',
    upstream: [at(MESSAGE_VALIDATOR, '50-67'), at(MESSAGE_ROUTER, '114-234')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/new',
    behaviour:
      'creates the chat by sending its first message; only the Private API takes effectId and subject (and /chat/new does not switch to it for them); AppleScript: one address and a message, else 500 (plain Errors); private-api needs a message; tempGuid injected into the answered messages',
    upstream: [
      at(`${SRC}api/http/api/v1/validators/chatValidator.ts`, '43-56'),
      at(CHAT_ROUTER, '193-235'),
      at(CHAT_INTERFACE, '282-332'),
      at(CHAT_INTERFACE, '141-165'),
      at(CHAT_INTERFACE, '212-237'),
    ],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/chat/:guid',
    behaviour: '404 "Chat does not exist!"; participants as serialized handles',
    upstream: [at(CHAT_ROUTER, '40-63')],
  },
  {
    kind: 'route',
    subject: 'PUT /api/v1/chat/:guid',
    behaviour: 'renames a group (Private API); a direct chat cannot be renamed',
    upstream: [at(ROUTES, '403-409'), at(CHAT_ROUTER, '154-190'), at(CHAT_INTERFACE, '100-112')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/:guid/participant',
    behaviour: 'adds `address` to a group (Private API); answers the chat',
    upstream: [at(ROUTES, '338-344'), at(CHAT_ROUTER, '237-269'), at(CHAT_INTERFACE, '334-345')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/:guid/participant/add',
    behaviour: 'alias of POST participant',
    upstream: [at(ROUTES, '352-358')],
  },
  {
    kind: 'route',
    subject: 'DELETE /api/v1/chat/:guid/participant',
    behaviour: 'removes `address` from a group (Private API)',
    upstream: [at(ROUTES, '345-351'), at(CHAT_ROUTER, '253-269')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/:guid/participant/remove',
    behaviour: 'alias of DELETE participant',
    upstream: [at(ROUTES, '359-365')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/:guid/leave',
    behaviour: 'leaves a group (Private API)',
    upstream: [at(ROUTES, '332-337'), at(CHAT_ROUTER, '318-321')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/:guid/typing',
    behaviour: 'starts typing (Private API middleware) and remembers the chat in the typing cache',
    upstream: [at(ROUTES, '366-371'), at(CHAT_ROUTER, '324-328'), at(CHAT_INTERFACE, '474-482')],
  },
  {
    kind: 'route',
    subject: 'DELETE /api/v1/chat/:guid/typing',
    behaviour: 'upstream bug reproduced: the stop route calls startTyping, so it starts typing',
    upstream: [at(ROUTES, '372-377'), at(CHAT_ROUTER, '330-334')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/:guid/read',
    behaviour: 'marks the chat read (Private API) and posts chat-read-status-changed',
    upstream: [at(ROUTES, '320-325'), at(CHAT_ROUTER, '241-245'), at(CHAT_INTERFACE, '455-461')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/chat/:guid/unread',
    behaviour: 'marks the chat unread (Private API, macOS 13+)',
    upstream: [at(ROUTES, '326-331'), at(CHAT_ROUTER, '247-251'), at(CHAT_INTERFACE, '463-472')],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/handle/availability/imessage',
    behaviour: '`address` required; Private API; `{available}`',
    upstream: [at(ROUTES, '552-558'), at(HANDLE_ROUTER, '69-75')],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/handle/availability/facetime',
    behaviour: '`address` required; Private API; `{available}`',
    upstream: [at(ROUTES, '559-564'), at(HANDLE_ROUTER, '77-83')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/handle/query',
    behaviour:
      'handles with `originalROWID`, `address`, `service`; `{data, metadata}`; `limit` at most 1,000 (400 above)',
    upstream: [
      at(HANDLE_ROUTER, '26-55'),
      at(`${SRC}api/http/api/v1/validators/handleValidator.ts`, '15-24'),
      at(`${SRC}api/serializers/HandleSerializer.ts`, '54-58'),
    ],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/handle/:guid/focus',
    behaviour: '404 "Handle not found!"; `{status}` (`silenced` under a Focus)',
    upstream: [at(ROUTES, '571-576'), at(HANDLE_ROUTER, '58-66')],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/attachment/:guid/download',
    behaviour:
      'without `original=true` a HEIC is served as JPEG and a CAF as MP3, with the converted Content-Type; 404 "Attachment does not exist!"',
    upstream: [
      at(ROUTES, '239-246'),
      at(`${SRC}api/http/api/v1/routers/attachmentRouter.ts`, '30-117'),
      at(`${SRC}api/http/api/v1/validators/attachmentValidator.ts`, '17-28'),
    ],
  },
  {
    kind: 'route',
    subject: 'GET /api/v1/webhook',
    behaviour: 'the webhooks with `events` as a list of strings',
    upstream: [at(ROUTES, '671-676'), at(WEBHOOK_ROUTER, '11-22')],
  },
  {
    kind: 'route',
    subject: 'POST /api/v1/webhook',
    behaviour:
      '`url` with an HTTP scheme and `events` from webhookEventOptions (400 otherwise); a URL registered already is answered as it is, not added twice; `events` answered as strings',
    upstream: [
      at(`${SRC}api/http/api/v1/validators/webhookValidator.ts`, '22-58'),
      at(WEBHOOK_ROUTER, '24-32'),
      at(`${SRC}databases/server/index.ts`, '208-217'),
    ],
  },
  {
    kind: 'route',
    subject: 'DELETE /api/v1/webhook/:id',
    behaviour: '404 "Webhook does not exist!"',
    upstream: [at(WEBHOOK_ROUTER, '34-46')],
  },

  // ---- events the fake posts ----
  {
    kind: 'event',
    subject: 'new-message',
    behaviour:
      'every new row (messages, tapbacks, group changes, kept audio): the serialized message with `chats`; a send matched to its tempGuid carries `tempGuid`',
    upstream: [at(SERVER, '1499-1534'), at(SERVER, '1182-1200'), at(POLLER, '81-93')],
  },
  {
    kind: 'event',
    subject: 'updated-message',
    behaviour: 'a delivered, read, edited or unsent message, serialized without `chats`',
    upstream: [at(SERVER, '1536-1580'), at(`${SRC}databases/imessage/pollers/index.ts`, '100-135')],
  },
  {
    kind: 'event',
    subject: 'message-send-error',
    behaviour: 'a send Messages failed (error ≠ 0), with `tempGuid` when known',
    upstream: [at(SERVER, '1202-1222'), at(SERVER, '1312-1314')],
  },
  {
    kind: 'event',
    subject: 'group-name-change',
    behaviour: 'an item type 2 row, then `new-message` for the same row',
    upstream: [at(POLLER, '118-119'), at(SERVER, '1316-1346')],
  },
  {
    kind: 'event',
    subject: 'participant-added',
    behaviour: 'item type 1, group action 0; the member as `otherHandle` (a handle ROWID)',
    upstream: [at(POLLER, '114-115'), at(SERVER, '1377-1404')],
  },
  {
    kind: 'event',
    subject: 'participant-removed',
    behaviour: 'item type 1, group action 1',
    upstream: [at(POLLER, '116-117'), at(SERVER, '1348-1375')],
  },
  {
    kind: 'event',
    subject: 'participant-left',
    behaviour: 'item type 3, group action 0',
    upstream: [at(POLLER, '120-121'), at(SERVER, '1406-1433')],
  },
  {
    kind: 'event',
    subject: 'group-icon-changed',
    behaviour: 'item type 3, group action 1 (not a member leaving)',
    upstream: [at(POLLER, '122-123'), at(SERVER, '1435-1462')],
  },
  {
    kind: 'event',
    subject: 'group-icon-removed',
    behaviour: 'item type 3, group action 2',
    upstream: [at(POLLER, '124-125'), at(SERVER, '1464-1491')],
  },
  {
    kind: 'event',
    subject: 'chat-read-status-changed',
    behaviour: '`{chatGuid, read}`',
    upstream: [at(SERVER, '1287-1293'), at(CHAT_INTERFACE, '455-472')],
  },
  {
    kind: 'event',
    subject: 'typing-indicator',
    behaviour: '`{display, guid}`, direct chats only',
    upstream: [at(`${SRC}api/privateApi/eventHandlers/PrivateApiTypingEventHandler.ts`, '11-45')],
  },
  {
    kind: 'event',
    subject: 'incoming-facetime',
    behaviour:
      'FaceTime Calling off (the default): the ring only, `data` a JSON string `{caller, timestamp}`',
    upstream: [at(FACETIME_HANDLER, '32-55')],
  },
  {
    kind: 'event',
    subject: 'ft-call-status-changed',
    behaviour:
      'FaceTime Calling on only: `{uuid, status, status_id, ended_error, ended_reason, address, handle, image_url, is_outgoing, is_audio, is_video}` for a new incoming call and for disconnected; never answered nor outgoing',
    upstream: [
      at(FACETIME_HANDLER, '57-101'),
      at(`${SRC}api/lib/facetime/FaceTimeSession.ts`, '10-24'),
    ],
  },

  // ---- defaults ----
  {
    kind: 'default',
    subject: 'facetime_calling off',
    behaviour: 'a ring is posted as incoming-facetime only',
    upstream: [at(`${SRC}databases/server/constants.ts`, '51'), at(FACETIME_HANDLER, '33-38')],
  },
  {
    kind: 'default',
    subject: 'server_version 1.9.9',
    behaviour: '`/server/info` reports the version of f2e2286',
    upstream: [at('packages/server/package.json', '3')],
  },
  {
    kind: 'default',
    subject: 'webhook events',
    behaviour: 'the event types a webhook may subscribe to, `*` included',
    upstream: [at(`${SRC}api/http/constants.ts`, '1-110')],
  },
  {
    kind: 'default',
    subject: 'private API off',
    behaviour:
      '`enable_private_api` is off until the operator enables it: Private API routes answer as a Mac without it; tests and `pnpm fake:bluebubbles` that play a Mac set up as the guide asks pass `PRIVATE_API_ENABLED`',
    upstream: [at(`${SRC}databases/server/constants.ts`, '38')],
  },

  // ---- quirks ----
  {
    kind: 'quirk',
    subject: 'sends never delivered (fault `undelivered`)',
    behaviour:
      'a delivery receipt reaches the server only as the poller seeing `date_delivered` change and posting `updated-message` with `dateDelivered`; a message Apple never delivers (a flagged Apple ID) is posted as `new-message` and then nothing, which the fault plays',
    upstream: [
      at(`${SRC}databases/imessage/pollers/index.ts`, '100-135'),
      at(SERVER, '1536-1580'),
      at(SERIALIZER, '129-227'),
    ],
  },
  {
    kind: 'quirk',
    subject: 'lastAddressedHandle',
    behaviour:
      "a chat serialized for the API (not for a webhook notification) carries `lastAddressedHandle`, the Mac's own handle the contact last wrote to; the fake includes it on every chat it serializes",
    upstream: [
      at(`${SRC}api/serializers/ChatSerializer.ts`, '87-96'),
      at(`${SRC}databases/imessage/entity/Chat.ts`, '81-82'),
    ],
  },
  {
    kind: 'quirk',
    subject: 'password in the query',
    behaviour: '`password`, `guid` or `token` query parameter; 401 otherwise',
    upstream: [at(`${SRC}api/http/api/v1/middleware/authMiddleware.ts`, '6-29')],
  },
  {
    kind: 'quirk',
    subject: 'error envelope',
    behaviour:
      '`{status, message, error: {type, message}, data?}`; unhandled Errors are 500 "Server Error"',
    upstream: [
      at(`${SRC}api/http/api/v1/responses/errors.ts`, '4-115'),
      at(`${SRC}api/http/api/v1/middleware/errorMiddleware.ts`, '7-40'),
    ],
  },
  {
    kind: 'quirk',
    subject: 'Private API middleware',
    behaviour:
      '500 "Please make sure you have completed the setup for the Private API…" with "iMessage Private API is not enabled!" or "…Helper is not connected!"',
    upstream: [at(PAPI_MIDDLEWARE, '5-17'), at(`${SRC}helpers/utils.ts`, '380-389')],
  },
  {
    kind: 'quirk',
    subject: 'webhooks unsigned, never retried',
    behaviour: 'one axios POST of `{type, data}` per subscribed webhook, errors only logged',
    upstream: [at(`${SRC}services/webhookService/index.ts`, '16-34'), at(SERVER, '1135-1166')],
  },
  {
    kind: 'quirk',
    subject: 'a week replayed',
    behaviour:
      'the poller looks back a week on dateCreated: a restart re-posts a week of new-message',
    upstream: [at(POLLER, '17-30')],
  },
  {
    kind: 'quirk',
    subject: 'tapback strings',
    behaviour:
      '`associatedMessageType` named (`love`, `-love`, `sticker`) or the raw number as a string (`2006`)',
    upstream: [at(`${SRC}databases/transformers/MessageTypeTransformer.ts`, '3-42')],
  },
  {
    kind: 'quirk',
    subject: 'kept audio (item type 5)',
    behaviour:
      'Messages writes "kept an audio message" as an item type 5 row; BlueBubbles has no event for it and posts it as new-message like any row',
    upstream: [at(POLLER, '56-57'), at(POLLER, '81-93')],
  },
  {
    kind: 'quirk',
    subject: 'any;-; GUIDs (macOS 26)',
    behaviour:
      'direct chats are `any;-;<address>` whatever the service; the handle carries `service` (`iMessage` or `SMS`)',
    upstream: [at(`${SRC}api/serializers/HandleSerializer.ts`, '54-58')],
  },
  {
    kind: 'quirk',
    subject: 'serialized attachments converted',
    behaviour: 'a HEIC is described as JPEG, a CAF as MP3 (convert: true by default)',
    upstream: [
      at(`${SRC}api/serializers/AttachmentSerializer.ts`, '59-70'),
      at(`${SRC}databases/imessage/helpers/utils.ts`, '64-69'),
      at(`${SRC}databases/imessage/helpers/utils.ts`, '117-121'),
    ],
  },
];

/** Section 2: what the adapter relies on (its requests and the fields it reads). */
export const ADAPTER_RELIES_ON: readonly FidelityRow[] = [
  {
    kind: 'adapter',
    subject: 'sendText',
    behaviour:
      'POST /message/text `{chatGuid, message, tempGuid, method, effectId?, selectedMessageGuid?, partIndex?}`',
    upstream: [at(MESSAGE_VALIDATOR, '69-79')],
  },
  {
    kind: 'adapter',
    subject: 'sendAttachment',
    behaviour:
      'POST /message/attachment multipart `{chatGuid, name, tempGuid, method, isAudioMessage?}`; a voice memo goes through the Private API only (AppleScript would send a plain file)',
    upstream: [
      at(MESSAGE_VALIDATOR, '121-131'),
      at(`${SRC}api/privateApi/apis/PrivateApiAttachment.ts`, '39'),
    ],
  },
  {
    kind: 'adapter',
    subject: 'upload + multipart',
    behaviour:
      'POST /attachment/upload (Private API) then POST /message/multipart `{chatGuid, tempGuid, parts}`',
    upstream: [at(ROUTES, '230-238'), at(MESSAGE_VALIDATOR, '208-217')],
  },
  {
    kind: 'adapter',
    subject: 'newChat',
    behaviour:
      'POST /chat/new `{addresses, message, service, method, tempGuid, effectId?}`: effects need method private-api here',
    upstream: [at(CHAT_ROUTER, '193-215'), at(CHAT_INTERFACE, '314-331')],
  },
  {
    kind: 'adapter',
    subject: 'react',
    behaviour:
      'POST /message/react `{chatGuid, selectedMessageGuid, reaction, partIndex}`, classic tapbacks only on 1.9.9; emoji only to a server newer than 1.9.9',
    upstream: [at(MESSAGE_VALIDATOR, '167-177'), at(MESSAGE_INTERFACE, '27-40')],
  },
  {
    kind: 'adapter',
    subject: 'edit / unsend',
    behaviour:
      'POST /message/:guid/edit `{editedMessage, backwardsCompatibilityMessage, partIndex}`; /unsend `{partIndex}`',
    upstream: [at(MESSAGE_VALIDATOR, '179-197')],
  },
  {
    kind: 'adapter',
    subject: 'typing',
    behaviour:
      'start: POST /chat/:guid/typing; stop: no call (DELETE starts typing); a send clears it, and Messages drops it on its own',
    upstream: [
      at(CHAT_ROUTER, '324-334'),
      at(MESSAGE_INTERFACE, '83-92'),
      at(`${SRC}api/http/api/v1/socketRoutes.ts`, '1007-1012'),
    ],
  },
  {
    kind: 'adapter',
    subject: 'message lookup',
    behaviour: 'GET /message/:guid?with=chats,attachment (without `with` there are no chats)',
    upstream: [at(MESSAGE_ROUTER, '73-110')],
  },
  {
    kind: 'adapter',
    subject: 'reconciliation',
    behaviour:
      'POST /message/query `{after, offset, limit ≤ 1000, sort: ASC, with: [chats, attachment, handle]}`',
    upstream: [at(MESSAGE_VALIDATOR, '50-62')],
  },
  {
    kind: 'adapter',
    subject: 'downloads',
    behaviour:
      'GET /attachment/:guid/download?original=true, the served Content-Type taken as the file’s type',
    upstream: [
      at(`${SRC}api/http/api/v1/routers/attachmentRouter.ts`, '30-71'),
      at(`${SRC}api/http/api/v1/responses/success.ts`, '75-81'),
    ],
  },
  {
    kind: 'adapter',
    subject: 'webhook registration',
    behaviour: 'GET /webhook, then POST /webhook `{url, events: ["*"]}` when the URL is missing',
    upstream: [at(WEBHOOK_ROUTER, '11-32')],
  },
  {
    kind: 'adapter',
    subject: 'server info',
    behaviour:
      'reads os_version, server_version, private_api, helper_connected, detected_icloud, detected_imessage',
    upstream: [at(`${SRC}api/interfaces/generalInterface.ts`, '13-27')],
  },
  {
    kind: 'adapter',
    subject: 'availability, focus, handles',
    behaviour:
      'GET /handle/availability/{imessage,facetime}?address=, GET /handle/:address/focus, POST /handle/query paged 1,000 at a time until the ROWID a group change names is found',
    upstream: [at(HANDLE_ROUTER, '26-83')],
  },
  {
    kind: 'adapter',
    subject: 'group operations',
    behaviour:
      'PUT /chat/:guid `{displayName}`, POST|DELETE /chat/:guid/participant `{address}`, POST /chat/:guid/leave, POST /chat/:guid/read|unread',
    upstream: [at(ROUTES, '320-409')],
  },
  {
    kind: 'adapter',
    subject: 'message fields',
    behaviour:
      'guid, text, handle.address, handle.service, isFromMe, error, dateCreated/Delivered/Read/Edited/Retracted, attachments, associatedMessageGuid/Type, threadOriginatorGuid, itemType, groupActionType, groupTitle, otherHandle, chats[0].guid, tempGuid',
    upstream: [at(SERIALIZER, '129-227')],
  },
  {
    kind: 'adapter',
    subject: 'group rows',
    behaviour:
      'item type 1/0 added, 1/1 removed, 2 renamed, 3/0 left, 3/1 photo changed, 3/2 photo removed; 5 kept audio',
    upstream: [at(POLLER, '101-130')],
  },
  {
    kind: 'adapter',
    subject: 'FaceTime',
    behaviour:
      'incoming-facetime (string) → facetime.incoming; ft-call-status-changed incoming → facetime.incoming, disconnected → status',
    upstream: [at(FACETIME_HANDLER, '32-101')],
  },
  {
    kind: 'adapter',
    subject: 'error bodies',
    behaviour:
      'reads `message`, `error.type`, `error.message` and `data` (a failed send’s message) of an error',
    upstream: [
      at(`${SRC}api/http/api/v1/responses/errors.ts`, '103-115'),
      at(MESSAGE_ROUTER, '281-323'),
    ],
  },
];
