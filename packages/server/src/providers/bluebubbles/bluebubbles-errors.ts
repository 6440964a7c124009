import type { Channel } from '@switchboard/contract';
import { ProviderError } from '@switchboard/provider-kit';
import { BlueBubblesApiError } from './bluebubbles-api';

/** The provider error of a failed BlueBubbles call made to `operation`. */
export function providerErrorOf(
  error: unknown,
  channel: Channel,
  operation: string,
): ProviderError {
  if (error instanceof ProviderError) return error;
  if (!(error instanceof BlueBubblesApiError)) {
    return new ProviderError('INTERNAL_ERROR', String(error), { channel, retryable: true });
  }
  const options = { channel, cause: error };
  if (error.status === 401) {
    return new ProviderError(
      'INTERNAL_ERROR',
      `BlueBubbles refused the instance's password (${operation})`,
      { ...options, retryable: true },
    );
  }
  if (error.status === 404) {
    return new ProviderError('NOT_FOUND', `${operation}: ${error.message}`, options);
  }
  if (error.status === 400) {
    return new ProviderError('VALIDATION_ERROR', `${operation}: ${error.message}`, options);
  }
  if (error.status === 0 && error.timedOut) {
    return new ProviderError('PROVIDER_TIMEOUT', `${operation}: ${error.message}`, options);
  }
  return new ProviderError('INTERNAL_ERROR', `${operation}: ${error.message}`, {
    ...options,
    retryable: true,
  });
}

/** The error of an edit or unsend the Mac could not make: `EDIT_FAILED` with its reason. */
export function changeErrorOf(
  error: unknown,
  channel: Channel,
  operation: 'edit' | 'unsend',
): ProviderError {
  if (error instanceof BlueBubblesApiError && error.status === 0 && error.timedOut) {
    return new ProviderError('PROVIDER_TIMEOUT', error.message, { channel, cause: error });
  }
  if (error instanceof BlueBubblesApiError && error.status >= 500) {
    return new ProviderError(
      'EDIT_FAILED',
      `The Mac could not ${operation} the message: ${error.message}`,
      { channel, cause: error },
    );
  }
  return providerErrorOf(error, channel, operation);
}
