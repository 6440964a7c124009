import type { Channel, ErrorCode } from '@switchboard/contract';

/**
 * The spec error codes a provider may report. Each is a code of the contract's registry, so the
 * message service can answer or record it as is.
 */
export const PROVIDER_ERROR_CODES = [
  'IMESSAGE_SEND_FAILED',
  'PROVIDER_TIMEOUT',
  'EDIT_FAILED',
  'CHANNEL_NOT_SUPPORTED',
  'NO_CHANNEL_AVAILABLE',
  'INVALID_PHONE_NUMBER',
  'INVALID_RECIPIENT',
  'RECIPIENT_OPTED_OUT',
  'NAME_REQUIRED',
  'NOT_FOUND',
  'INVALID_STATUS',
  'VALIDATION_ERROR',
  'INTERNAL_ERROR',
] as const satisfies readonly ErrorCode[];

/** A spec error code a provider may report. */
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

/** How the gateway may react to a provider error, beyond its code. */
export interface ProviderErrorOptions {
  /** The same call may succeed if repeated later on the same channel. */
  retryable?: boolean;
  /** A send may move on to the next channel of the routing preference. */
  fallback?: boolean;
  /** The upstream's own error code (a Twilio `ErrorCode`, a BlueBubbles `error`, a Baileys status). */
  providerCode?: string;
  /** The channel the failed call was for. */
  channel?: Channel;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * Defaults per code. A timed-out send is neither retried nor re-routed by default: the upstream
 * may still deliver it (BlueBubbles answers 500 after ~120 s for messages that did arrive), and a
 * second channel would then deliver the message twice.
 */
const DEFAULTS: Record<ProviderErrorCode, { retryable: boolean; fallback: boolean }> = {
  IMESSAGE_SEND_FAILED: { retryable: false, fallback: true },
  PROVIDER_TIMEOUT: { retryable: false, fallback: false },
  EDIT_FAILED: { retryable: false, fallback: false },
  CHANNEL_NOT_SUPPORTED: { retryable: false, fallback: true },
  NO_CHANNEL_AVAILABLE: { retryable: false, fallback: true },
  INVALID_PHONE_NUMBER: { retryable: false, fallback: false },
  INVALID_RECIPIENT: { retryable: false, fallback: false },
  RECIPIENT_OPTED_OUT: { retryable: false, fallback: false },
  NAME_REQUIRED: { retryable: false, fallback: false },
  NOT_FOUND: { retryable: false, fallback: false },
  INVALID_STATUS: { retryable: false, fallback: false },
  VALIDATION_ERROR: { retryable: false, fallback: false },
  INTERNAL_ERROR: { retryable: true, fallback: false },
};

/**
 * The brand of every {@link ProviderError}: an adapter published as its own package (Baileys)
 * carries its own copy of this class, so the gateway recognises the brand, not the class.
 */
const PROVIDER_ERROR_BRAND = Symbol.for('switchboard.provider-error');

/**
 * The one error a provider throws: a spec error code plus what the gateway may do next.
 * `NO_CHANNEL_AVAILABLE` means "this recipient cannot be reached on this channel" (a fallback
 * with reason `unavailable`); any other error that allows fallback is a failed attempt (reason
 * `send_failed`).
 * @example throw new ProviderError('EDIT_FAILED', 'The Private API helper rejected the edit');
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  /** Marks the error as a provider error across copies of this class. */
  readonly [PROVIDER_ERROR_BRAND] = true;
  /** The spec error code. */
  readonly code: ProviderErrorCode;
  /** The same call may succeed if repeated later on the same channel. */
  readonly retryable: boolean;
  /** A send may move on to the next channel of the routing preference. */
  readonly fallback: boolean;
  /** The upstream's own error code, when it gave one. */
  readonly providerCode: string | undefined;
  /** The channel the failed call was for, when known. */
  readonly channel: Channel | undefined;

  /** Creates an error with the code's default traits, overridden by `options`. */
  constructor(code: ProviderErrorCode, message: string, options: ProviderErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? DEFAULTS[code].retryable;
    this.fallback = options.fallback ?? DEFAULTS[code].fallback;
    this.providerCode = options.providerCode;
    this.channel = options.channel;
  }

  /** The recipient cannot be reached on `channel` (the gateway falls back with `unavailable`). */
  static unreachable(channel: Channel, address: string): ProviderError {
    return new ProviderError('NO_CHANNEL_AVAILABLE', `${address} is not reachable on ${channel}`, {
      channel,
    });
  }

  /** The instance cannot perform `operation` on `channel`. */
  static channelNotSupported(channel: Channel, operation: string): ProviderError {
    return new ProviderError(
      'CHANNEL_NOT_SUPPORTED',
      `${operation} is not supported on ${channel}`,
      {
        channel,
      },
    );
  }
}

/**
 * True when `error` is a {@link ProviderError}, including one thrown by an adapter bundled with
 * its own copy of this module.
 */
export function isProviderError(error: unknown): error is ProviderError {
  return (
    error instanceof ProviderError ||
    (error instanceof Error &&
      (error as unknown as Record<symbol, unknown>)[PROVIDER_ERROR_BRAND] === true)
  );
}

/** The failure a provider reports for a message, in a status event or a status snapshot. */
export interface ProviderFailure {
  /** The spec error code. */
  code: ProviderErrorCode;
  /** A human-readable explanation, safe to show to the customer. */
  message: string;
  /** The upstream's own error code, when it gave one. */
  providerCode?: string;
}
