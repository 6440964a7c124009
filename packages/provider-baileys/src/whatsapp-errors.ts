import { isProviderError, ProviderError, type ProviderFailure } from '@switchboard/provider-kit';

/**
 * What WhatsApp's negative acks of a sent message mean, by the code Baileys puts in the update's
 * `messageStubParameters` (its `SERVER_ERROR_CODES` and `NACK_REASONS`,
 * `lib/Utils/decode-wa-message.js` of baileys@7.0.0-rc14). Codes not listed fail with the spec's
 * delivery error and the code itself.
 */
const ACK_ERRORS: Readonly<Record<string, ProviderFailure>> = {
  '463': {
    code: 'NO_CHANNEL_AVAILABLE',
    message:
      'WhatsApp refused the message (error 463): this account may not start new chats (restricted, or no privacy token for the contact)',
  },
  '479': {
    code: 'IMESSAGE_SEND_FAILED',
    message:
      'WhatsApp rejected the message (error 479, invalid stanza): a stale device session; sending again may work',
  },
};

/**
 * The failure of a message WhatsApp's server refused (a `messages.update` of status ERROR), with
 * WhatsApp's code kept in the message.
 * @example failureOfAck('463').code // 'NO_CHANNEL_AVAILABLE'
 */
export function failureOfAck(code: string | null | undefined): ProviderFailure {
  const known = code ? ACK_ERRORS[code] : undefined;
  if (known && code) return { ...known, providerCode: code };
  return {
    code: 'IMESSAGE_SEND_FAILED',
    ...(code ? { providerCode: code } : {}),
    message: code
      ? `WhatsApp refused the message (error ${code})`
      : 'WhatsApp refused the message (no error code given)',
  };
}

/**
 * The code of a failed Baileys call: WhatsApp's own code when a query was answered with an error
 * (Baileys puts it in the Boom's `data`, leaving its statusCode at 500:
 * `lib/WABinary/generic-utils.js:57`), else the Boom's statusCode (408 timed out, 428 connection
 * closed), else undefined.
 */
export function upstreamCodeOf(error: unknown): number | undefined {
  const boom = error as { data?: unknown; output?: { statusCode?: unknown } } | undefined;
  if (typeof boom?.data === 'number') return boom.data;
  const status = boom?.output?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** True when a failed call may succeed if repeated: no answer, a lost connection, overload. */
function transient(code: number | undefined): boolean {
  return code === undefined || code === 408 || code === 428 || code === 429 || code >= 500;
}

/**
 * A failed Baileys call as a provider error: a timeout, a closed connection or WhatsApp's overload
 * is a retryable `PROVIDER_TIMEOUT`; a refusal keeps WhatsApp's code and reason and is not
 * retried: 404 `NOT_FOUND`, 400/406 `VALIDATION_ERROR`, any other the delivery error for a send
 * (`IMESSAGE_SEND_FAILED`, which may fall back) or `INVALID_STATUS` for an operation.
 * @example providerErrorOf(new Boom('forbidden', { data: 403 }), 'create the group', 'operation')
 */
export function providerErrorOf(
  error: unknown,
  action: string,
  kind: 'send' | 'operation',
): ProviderError {
  if (isProviderError(error)) return error;
  const code = upstreamCodeOf(error);
  const reason = error instanceof Error ? error.message : String(error);
  const common = {
    channel: 'whatsapp' as const,
    cause: error,
    ...(code === undefined ? {} : { providerCode: String(code) }),
  };
  const detail = `${code ?? 'no code'}: ${reason}`;
  if (transient(code)) {
    return new ProviderError('PROVIDER_TIMEOUT', `WhatsApp did not ${action} (${detail})`, {
      ...common,
      retryable: true,
    });
  }
  const refusal = `WhatsApp refused to ${action} (${detail})`;
  if (code === 404) return new ProviderError('NOT_FOUND', refusal, common);
  if (code === 400 || code === 406) return new ProviderError('VALIDATION_ERROR', refusal, common);
  return new ProviderError(kind === 'send' ? 'IMESSAGE_SEND_FAILED' : 'INVALID_STATUS', refusal, {
    ...common,
    retryable: false,
  });
}
