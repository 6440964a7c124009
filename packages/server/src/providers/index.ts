export { ManualTimerClock } from './manual-timer-clock';
export { OrderedEventDelivery } from './ordered-event-delivery';
export type {
  MessagingProvider,
  ProviderAvailability,
  ProviderAvailabilityRequest,
  ProviderChat,
  ProviderChatRequest,
  ProviderCreateGroupRequest,
  ProviderDestination,
  ProviderEditRequest,
  ProviderHealth,
  ProviderHealthStatus,
  ProviderHealthWarning,
  ProviderHealthWarningCode,
  ProviderLogger,
  ProviderMention,
  ProviderMessageRef,
  ProviderOperation,
  ProviderOutboundAttachment,
  ProviderParticipant,
  ProviderParticipantRequest,
  ProviderReactRequest,
  ProviderRenameGroupRequest,
  ProviderSendRequest,
  ProviderSendResult,
  ProviderSentPart,
  ProviderStartContext,
  ProviderStatusSnapshot,
  ProviderTypingRequest,
  ProviderUnsendRequest,
  ProviderWebhookRequest,
  ProviderWebhookResponse,
} from './provider';
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
  ProviderDeliveryStatus,
  ProviderEventSink,
  ProviderFaceTimeIncomingEvent,
  ProviderFaceTimeStatusEvent,
  ProviderInboundAttachment,
  ProviderInboundEvent,
  ProviderInboundEventKind,
  ProviderInboundMessageEvent,
  ProviderLidResolvedEvent,
  ProviderReactionEvent,
  ProviderStatusEvent,
  ProviderTypingEvent,
  ProviderWhatsAppConnectionEvent,
  ProviderWhatsAppPairingCodeEvent,
  WhatsAppDisconnectReason,
} from './provider-events';
export { healthWarning } from './provider-health-warning';
export { type ProviderReaction, TAPBACK_VERBS, type TapbackType } from './provider-reaction';
export {
  ProviderConfigError,
  type ProviderFactory,
  type ProviderInstanceConfig,
  ProviderRegistry,
} from './provider-registry';
export { MemoryProviderStateStore, type ProviderStateStore } from './provider-state-store';
export {
  behaviourOf,
  type ChannelOutcome,
  type EditOutcome,
  isReachable,
  type LifecycleStep,
  magicDigits,
  type RecipientBehaviour,
  renderRecipientTable,
} from './simulator/recipient-behaviour';
export {
  createSimulatorFactory,
  type SimulatorFactoryOptions,
} from './simulator/simulator-factory';
export { SIMULATOR_SIGNATURE_HEADER, signSimulatorCall } from './simulator/simulator-ingress';
export {
  DEFAULT_SIMULATOR_STEP_MS,
  SIMULATOR_CHANNELS,
  SIMULATOR_PROVIDER,
  SimulatorProvider,
  type SimulatorProviderOptions,
} from './simulator/simulator-provider';
export type {
  SandboxAttachment,
  SandboxGroupEvent,
  SandboxInboundMessage,
  SandboxReaction,
  SandboxStatus,
  SandboxTyping,
  SimulatorSandbox,
} from './simulator/simulator-sandbox';
export type { SimulatorWhatsAppSessions } from './simulator/simulator-whatsapp-sessions';
export { sleep, systemTimerClock, type TimerClock } from './timer-clock';
export type {
  WhatsAppLookup,
  WhatsAppSessionPort,
  WhatsAppSessionSnapshot,
} from './whatsapp-session-port';
