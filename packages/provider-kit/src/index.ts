/**
 * The provider port: what a Switchboard provider adapter implements (`MessagingProvider`), the
 * requests it gets, the events it emits, the errors it throws, and the registry that builds it.
 */

export { capabilityOn, requireCapability } from './capability-lookup';
export { OrderedEventDelivery, type OrderedEventDeliveryOptions } from './ordered-event-delivery';
export type {
  MessagingProvider,
  ProviderAvailability,
  ProviderAvailabilityRequest,
  ProviderHealth,
  ProviderHealthStatus,
  ProviderHealthWarning,
  ProviderHealthWarningCode,
  ProviderLogger,
  ProviderMention,
  ProviderOutboundAttachment,
  ProviderSendRequest,
  ProviderSendResult,
  ProviderSentPart,
  ProviderStartContext,
  ProviderStatusSnapshot,
  ProviderWebhookRequest,
  ProviderWebhookResponse,
} from './provider';
export {
  type ChatLookupCapability,
  type EditCapability,
  type GroupCapability,
  PROVIDER_CAPABILITY_NAMES,
  type ProviderCapabilities,
  type ProviderCapability,
  type ProviderCapabilityName,
  type ProviderChat,
  type ProviderChatRequest,
  type ProviderCreateGroupRequest,
  type ProviderEditRequest,
  type ProviderParticipant,
  type ProviderParticipantRequest,
  type ProviderReactRequest,
  type ProviderRenameGroupRequest,
  type ProviderTypingRequest,
  type ProviderUnsendRequest,
  type ReactionCapability,
  type ReadStateCapability,
  type TypingCapability,
  type UnsendCapability,
} from './provider-capabilities';
export {
  isProviderError,
  PROVIDER_ERROR_CODES,
  ProviderError,
  type ProviderErrorCode,
  type ProviderErrorOptions,
  type ProviderFailure,
} from './provider-error';
export type {
  FaceTimeCallStatus,
  ProviderAttachmentContent,
  ProviderAudioKeptEvent,
  ProviderChatEvent,
  ProviderChatReadEvent,
  ProviderDeliveryStatus,
  ProviderEventSink,
  ProviderFaceTimeIncomingEvent,
  ProviderFaceTimeStatusEvent,
  ProviderInboundAttachment,
  ProviderInboundEvent,
  ProviderInboundEventKind,
  ProviderInboundMessageEvent,
  ProviderLidResolvedEvent,
  ProviderMessageChangedEvent,
  ProviderReactionEvent,
  ProviderStatusEvent,
  ProviderTypingEvent,
  ProviderWhatsAppConnectionEvent,
  ProviderWhatsAppPairingCodeEvent,
  WhatsAppDisconnectReason,
} from './provider-events';
export { SinkUnavailableError } from './provider-events';
export { healthWarning } from './provider-health-warning';
export { MemoryProviderLeases, type ProviderLeases } from './provider-leases';
export type {
  ProviderDestination,
  ProviderMessageRef,
  ProviderOperation,
} from './provider-operation';
export {
  firstEmoji,
  isSingleEmoji,
  type ProviderReaction,
  TAPBACK_VERBS,
} from './provider-reaction';
export {
  ProviderConfigError,
  type ProviderFactory,
  type ProviderInstanceConfig,
  ProviderRegistry,
} from './provider-registry';
export {
  MemoryProviderStateStore,
  type ProviderStateStore,
} from './provider-state-store';
export {
  sleep,
  systemTimerClock,
  type TimerClock,
} from './timer-clock';
export type {
  WhatsAppLookup,
  WhatsAppSessionPort,
  WhatsAppSessionSnapshot,
} from './whatsapp-session-port';
