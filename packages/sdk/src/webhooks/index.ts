export type { SwitchboardEventOf } from '../event-of';
export type { WebhookEvent } from '../generated/api-types';
export {
  WebhookInvalidJsonError,
  WebhookMalformedSignatureError,
  WebhookMalformedTimestampError,
  WebhookMissingHeaderError,
  WebhookRawBodyRequiredError,
  WebhookSignatureMismatchError,
  WebhookTimestampInFutureError,
  WebhookTimestampTooOldError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './errors';
export type { WebhookHeaders } from './headers';
export {
  type SignWebhookPayloadParams,
  signWebhookPayload,
  type WebhookSignatureHeaders,
} from './sign';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type VerifyWebhookParams,
  verifyWebhook,
  type WebhookPayload,
} from './verify';
