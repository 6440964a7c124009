import type { ProviderErrorCode, ProviderFailure } from '@switchboard/provider-kit';

/** What a Twilio error code means for a message: its spec code and a sentence for the customer. */
interface TwilioErrorMeaning {
  /** The spec error code the message reports. */
  code: ProviderErrorCode;
  /** Why, in words a customer can act on. */
  message: string;
}

/**
 * The Twilio error codes messages commonly fail with (twilio.com/docs/api/errors), as spec codes.
 * Codes not listed fail with `IMESSAGE_SEND_FAILED` (the spec's delivery error) and Twilio's own
 * message.
 */
const TWILIO_ERRORS: Readonly<Record<number, TwilioErrorMeaning>> = {
  11200: {
    code: 'IMESSAGE_SEND_FAILED',
    message: 'Twilio could not fetch a media URL of the message',
  },
  12300: {
    code: 'IMESSAGE_SEND_FAILED',
    message: 'Twilio refused the content type of a media URL of the message',
  },
  30019: {
    code: 'IMESSAGE_SEND_FAILED',
    message: 'The media is larger than the carrier accepts for MMS',
  },
  21211: { code: 'INVALID_PHONE_NUMBER', message: 'The recipient is not a valid phone number' },
  21408: {
    code: 'NO_CHANNEL_AVAILABLE',
    message: 'The Twilio account may not send to the recipient’s country (geo permissions)',
  },
  21606: {
    code: 'IMESSAGE_SEND_FAILED',
    message:
      'The sender number is not an SMS-capable number of this Twilio account, or cannot send to this destination',
  },
  21610: {
    code: 'RECIPIENT_OPTED_OUT',
    message: 'The recipient replied STOP to this sender and receives no more messages from it',
  },
  21612: {
    code: 'NO_CHANNEL_AVAILABLE',
    message: 'The sender number cannot send to the recipient (carrier route not available)',
  },
  21617: {
    code: 'VALIDATION_ERROR',
    message: 'The text is longer than the 1,600 characters Twilio sends as one message',
  },
  21614: {
    code: 'NO_CHANNEL_AVAILABLE',
    message: 'The recipient is not a mobile number and cannot receive SMS',
  },
  30003: {
    code: 'NO_CHANNEL_AVAILABLE',
    message: 'The recipient’s phone is unreachable (switched off or out of coverage)',
  },
  30004: {
    code: 'IMESSAGE_SEND_FAILED',
    message: 'The message was blocked by the recipient or carrier',
  },
  30005: {
    code: 'NO_CHANNEL_AVAILABLE',
    message: 'The recipient’s number is unknown to its carrier or no longer in service',
  },
  30006: {
    code: 'NO_CHANNEL_AVAILABLE',
    message: 'The recipient is a landline or its carrier cannot deliver SMS',
  },
  30007: {
    code: 'IMESSAGE_SEND_FAILED',
    message: 'The carrier filtered the message (spam rules, or an unregistered A2P 10DLC sender)',
  },
  30008: {
    code: 'IMESSAGE_SEND_FAILED',
    message: 'The carrier failed to deliver the message (unknown error)',
  },
  30032: {
    code: 'IMESSAGE_SEND_FAILED',
    message:
      'The toll-free sender number is not verified: carriers block its messages until Twilio’s toll-free verification is approved',
  },
  30034: {
    code: 'IMESSAGE_SEND_FAILED',
    message:
      'The sender number is not registered to an approved A2P 10DLC campaign: US carriers block its messages',
  },
};

/**
 * The failure of a message Twilio reports with `code` (a `status` callback's `ErrorCode`, a
 * Message's `error_code`, an API error), `fallback` being Twilio's own text.
 */
export function twilioFailure(code: number | undefined, fallback: string): ProviderFailure {
  const meaning = code === undefined ? undefined : TWILIO_ERRORS[code];
  return {
    code: meaning?.code ?? 'IMESSAGE_SEND_FAILED',
    message: meaning
      ? `${meaning.message} (Twilio error ${code})`
      : code === undefined
        ? fallback
        : `${fallback} (Twilio error ${code})`,
    ...(code === undefined ? {} : { providerCode: String(code) }),
  };
}
