import {
  BlockedAddressError,
  type HostResolver,
  resolvePublicAddresses,
  systemResolver,
} from './safe-dispatcher';
import { assertSafeUrl, UnsafeUrlError } from './url-guard';

/** How an operator admits private targets; named in every refusal of a private or http URL. */
const PRIVATE_URLS_HINT =
  'to allow private targets for local development, an operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true';

function withHint(error: UnsafeUrlError | BlockedAddressError): string {
  const privateCause =
    error instanceof BlockedAddressError ||
    error.reason === 'non_public_address' ||
    error.reason === 'blocked_hostname' ||
    error.reason === 'scheme_not_allowed';
  return privateCause ? `${error.message} (${PRIVATE_URLS_HINT})` : error.message;
}

/**
 * A URL refused at the request, with a message that names the field it came in and the reason.
 * Egress sits below the domain and knows no error codes: the domain answers it as 400
 * `VALIDATION_ERROR` (`domain/safe-url.ts`).
 */
export class RefusedUrlError extends Error {
  override name = 'RefusedUrlError';

  /** A refusal of the URL given as `field`. */
  constructor(
    /** The request field the URL came in (`url`, `attachments[0].url`, …). */
    readonly field: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The URL the server may store and later call, normalized (`assertSafeUrl(...).href`), so the host
 * checked is the host connected to; https and a public address unless `allowPrivate`
 * (`WEBHOOK_ALLOW_PRIVATE_URLS`).
 * @throws {RefusedUrlError} naming `field` when the URL is not safe.
 */
function requireSafeUrl(url: string, field: string, allowPrivate: boolean): string {
  try {
    return assertSafeUrl(url, { allowPrivate }).href;
  } catch (error) {
    if (error instanceof UnsafeUrlError) {
      throw new RefusedUrlError(field, `${field}: ${withHint(error)}`, { cause: error });
    }
    throw error;
  }
}

/** Options of {@link OutboundUrlPolicy}. */
export interface OutboundUrlPolicyOptions {
  /** `WEBHOOK_ALLOW_PRIVATE_URLS`: admit http and non-public hosts (development and tests). */
  allowPrivate: boolean;
  /** The resolver of the delivery-time check (tests script DNS rebinding). */
  resolver?: HostResolver;
}

/**
 * The one URL-safety policy for every URL a customer gives the server to call or fetch: webhook
 * URLs, a message's `callbackUrl`, `content.mediaUrls` and attachment `url`s. At the request the
 * URL is checked as written (scheme, userinfo, IP literals in every spelling, internal names);
 * again when it is used, against the addresses its host resolves to then, so a name that rebinds
 * to a private address between the two checks is refused. Webhook and callback deliveries also
 * connect through the safe dispatcher, which repeats the address check at connect time and
 * follows no redirects; fetches the server makes itself re-check every redirect hop.
 */
export class OutboundUrlPolicy {
  readonly #options: OutboundUrlPolicyOptions;

  /** The policy for one server's configuration. */
  constructor(options: OutboundUrlPolicyOptions) {
    this.#options = options;
  }

  /** Whether http and private targets are admitted (`WEBHOOK_ALLOW_PRIVATE_URLS`). */
  get allowPrivate(): boolean {
    return this.#options.allowPrivate;
  }

  /**
   * The request-time check: the normalized URL to store.
   * @throws {RefusedUrlError} naming `field`.
   */
  require(url: string, field: string): string {
    return requireSafeUrl(url, field, this.#options.allowPrivate);
  }

  /**
   * The use-time check: the URL again, then every address its host resolves to now. A name that
   * does not resolve passes (the party fetching it reports that); a name with any non-public
   * address does not.
   * @returns the reason the URL is refused, naming `field`, or null when it may be used.
   */
  async refusalAtUse(url: string, field: string): Promise<string | null> {
    if (this.#options.allowPrivate) return null;
    let host: string;
    try {
      host = assertSafeUrl(url, { allowPrivate: false }).hostname;
    } catch (error) {
      if (error instanceof UnsafeUrlError) return `${field}: ${withHint(error)}`;
      throw error;
    }
    try {
      await resolvePublicAddresses(host, { resolver: this.#options.resolver ?? systemResolver });
      return null;
    } catch (error) {
      if (error instanceof BlockedAddressError) return `${field}: ${withHint(error)}`;
      return null;
    }
  }
}
