export {
  type ClientOptions,
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT,
  type HealthResponse,
  Switchboard,
} from './client';
export { APIPromise } from './core/api-promise';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorResponseInit,
  GoneError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  SwitchboardError,
} from './core/errors';
export { type FetchPage, Page, type PageInit, PagePromise } from './core/pagination';
export type { APIResponse, RequestOptions } from './core/request';
export { DEFAULT_MAX_RETRIES, type Sleep } from './core/retry';
export type { SwitchboardEventOf } from './event-of';
// The contract's named types (Message, Chat, every event, ErrorCode…) and `Operations`.
export type * from './generated/api-types';
export type { AttachmentLocator } from './internal/attachment-url';
export type {
  AttachmentDownload,
  AttachmentDownloadParams,
  Attachments,
} from './resources/attachments';
export type {
  CallbackDeliveryItem,
  CallbackListDeliveriesParams,
  CallbackSecretResponse,
  Callbacks,
} from './resources/callbacks';
export type {
  Capabilities,
  CapabilityResponse,
} from './resources/capabilities';
export type {
  ChatAddParticipantParams,
  ChatCreateGroupParams,
  ChatCreateGroupResponse,
  ChatRenameParams,
  ChatResponse,
  Chats,
  ChatTypingParams,
} from './resources/chats';
export type {
  ContactErasureCreateParams,
  ContactErasureListResponse,
  ContactErasureResponse,
  ContactErasures,
} from './resources/contact-erasures';
export type { EventStreamParams, Events } from './resources/events';
export type {
  MessageDeleteResponse,
  MessageEditParams,
  MessageEventItem,
  MessageListEventsParams,
  MessageListItem,
  MessageListParams,
  MessageListScheduledParams,
  MessageReactParams,
  MessageReactResponse,
  MessageResponse,
  MessageRetryResponse,
  MessageRoutingResponse,
  MessageSendParams,
  MessageSendResponse,
  Messages,
} from './resources/messages';
export type { NumberListResponse, NumberSendPolicyResponse, Numbers } from './resources/numbers';
export type {
  Sandbox,
  SandboxAudioKeptParams,
  SandboxAudioKeptResponse,
  SandboxChatEventParams,
  SandboxChatEventResponse,
  SandboxDropConnectionParams,
  SandboxEnterPairingCodeParams,
  SandboxFaceTimeCallParams,
  SandboxFaceTimeCallResponse,
  SandboxFaceTimeStatusParams,
  SandboxInboundMessageParams,
  SandboxInboundMessageResponse,
  SandboxInstanceHealthParams,
  SandboxInstanceHealthResponse,
  SandboxMessageStatusParams,
  SandboxMessageStatusResponse,
  SandboxReactionParams,
  SandboxReactionResponse,
  SandboxResolveLidParams,
  SandboxResolveLidResponse,
  SandboxTypingParams,
  SandboxTypingResponse,
  SandboxWhatsAppSessionResponse,
} from './resources/sandbox';
export type {
  LegacyWebhooks,
  WebhookCreateParams,
  WebhookCreateResponse,
  WebhookDeleteResponse,
  WebhookDeliveryItem,
  WebhookListDeliveriesParams,
  WebhookRedeliverResponse,
  WebhookResponse,
  WebhookRotateSecretResponse,
  Webhooks,
  WebhookTestResponse,
  WebhookUpdateParams,
} from './resources/webhooks';
export type {
  WhatsApp,
  WhatsAppCheckParams,
  WhatsAppListResponse,
  WhatsAppPairingCodeParams,
  WhatsAppSessionResponse,
  WhatsAppStatusResponse,
} from './resources/whatsapp';
export { resolveServerUrl } from './server-url';
export type { EventStream, ReconnectOptions } from './sse/stream';
