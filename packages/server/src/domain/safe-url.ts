import { type OutboundUrlPolicy, RefusedUrlError } from '../egress/outbound-url';
import { DomainError } from './domain-error';

/** What the domain asks of the URL-safety policy at the request. */
export type UrlRequirement = Pick<OutboundUrlPolicy, 'require'>;

/**
 * A URL a request gives the server to call or fetch, checked by the URL-safety policy and
 * normalized, so the host checked is the host used. Egress refuses with its own error; the domain
 * answers the refusal with the spec's code.
 * @throws {DomainError} VALIDATION_ERROR naming `field` when the policy refuses the URL.
 * @example const url = requireUrl(urlPolicy, body.callbackUrl, 'callbackUrl');
 */
export function requireUrl(policy: UrlRequirement, url: string, field: string): string {
  try {
    return policy.require(url, field);
  } catch (error) {
    if (error instanceof RefusedUrlError) {
      throw new DomainError('VALIDATION_ERROR', error.message, { cause: error });
    }
    throw error;
  }
}
