export {
  type AttemptPlan,
  type PlanAttemptInput,
  planAttempt,
  type StreakEffect,
} from './attempt-plan';
export {
  classifyStatus,
  type DeliverInput,
  type DeliveryOutcome,
  type DeliveryOutcomeKind,
  deliver,
  MAX_RESPONSE_BODY_BYTES,
} from './delivery-client';
export {
  DeliveryQueue,
  DeliveryQueueClosedError,
  DeliveryQueueFullError,
  type DeliveryQueueOptions,
} from './delivery-queue';
export {
  DEFAULT_RETRY_SCHEDULE,
  type DueItem,
  formatRetrySchedule,
  InvalidRetryScheduleError,
  MAX_RETRY_STEP_MS,
  MAX_RETRY_STEPS,
  type NextAttemptInput,
  nextAttemptDelay,
  parseRetryAfter,
  parseRetrySchedule,
  type RetrySchedule,
  type SpreadItem,
  type SpreadOverdueOptions,
  spreadOverdue,
} from './retry-schedule';
export {
  BlockedAddressError,
  createSafeDispatcher,
  type HostResolver,
  type ResolvedAddress,
  resolvePublicAddresses,
  type SafeDispatcherOptions,
  type SafeResolveOptions,
  systemResolver,
} from './safe-dispatcher';
export {
  type AddressClassification,
  assertSafeUrl,
  classifyAddress,
  isPublicAddress,
  UnsafeUrlError,
  type UnsafeUrlReason,
  type UrlGuardOptions,
} from './url-guard';
export {
  type AttemptReport,
  type DispatcherLogger,
  WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './webhook-dispatcher';
export {
  buildDeliveryHeaders,
  type DeliveryHeaderInput,
  signWebhook,
  toUnixSeconds,
  WEBHOOK_USER_AGENT,
} from './webhook-signer';
