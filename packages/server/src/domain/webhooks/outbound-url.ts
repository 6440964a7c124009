import { assertSafeUrl, UnsafeUrlError } from '../../webhooks/url-guard';
import { DomainError } from '../domain-error';

/**
 * The URL the server may store and later call, normalized (`assertSafeUrl(...).href`), so the host
 * checked is the host connected to; https and a public address unless `allowPrivate`
 * (`WEBHOOK_ALLOW_PRIVATE_URLS`).
 * @throws {DomainError} VALIDATION_ERROR naming `field` when the URL is not safe.
 * @example const url = requireSafeUrl(body.url, 'url', config.webhookAllowPrivateUrls);
 */
export function requireSafeUrl(url: string, field: string, allowPrivate: boolean): string {
  try {
    return assertSafeUrl(url, { allowPrivate }).href;
  } catch (error) {
    if (error instanceof UnsafeUrlError) {
      throw new DomainError('VALIDATION_ERROR', `${field}: ${error.message}`);
    }
    throw error;
  }
}
