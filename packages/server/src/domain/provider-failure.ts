import { isProviderError } from '@switchboard/provider-kit';
import { DomainError } from './domain-error';

/**
 * A provider's failure as the API answers it: a `ProviderError` keeps its spec code and message;
 * anything else is rethrown unchanged (the error handler answers it 500).
 */
export function toDomainError(error: unknown): unknown {
  if (isProviderError(error)) return new DomainError(error.code, error.message, { cause: error });
  return error;
}

/**
 * True when `error` (a provider error, or a domain error standing for one) says the upstream
 * could not be asked now but may answer later.
 */
export function isRetryable(error: unknown): boolean {
  const provider = isProviderError(error)
    ? error
    : error instanceof Error && isProviderError(error.cause)
      ? error.cause
      : undefined;
  return provider?.retryable === true;
}
