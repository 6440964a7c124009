import { isProviderError } from '@switchboard/provider-kit';
import { DomainError } from '../domain-error';

/**
 * Runs a provider operation and turns a `ProviderError` into the `DomainError` of the same spec
 * code, so the caller answers e.g. 504 `PROVIDER_TIMEOUT` or 400 `INVALID_STATUS` as the provider
 * reported it. Any other error is a bug and propagates as is (500).
 */
export async function callProvider<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isProviderError(error)) throw new DomainError(error.code, error.message);
    throw error;
  }
}
