import { isProviderError } from '../providers/provider-error';
import { DomainError } from './domain-error';

/**
 * A provider's failure as the API answers it: a `ProviderError` keeps its spec code and message;
 * anything else is rethrown unchanged (the error handler answers it 500).
 */
export function toDomainError(error: unknown): unknown {
  if (isProviderError(error)) return new DomainError(error.code, error.message);
  return error;
}
