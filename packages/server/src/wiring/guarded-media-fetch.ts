import type { Config } from '../config';
import { type FetchedFile, fetchAttachment } from '../domain/attachments/attachment-fetcher';
import { createSafeDispatcher } from '../egress/safe-dispatcher';

/** Deadline of fetching one file, redirects and body included. */
const MEDIA_FETCH_TIMEOUT_MS = 30_000;

/** Fetches files by URL through the address guard; `close` ends its connections at shutdown. */
export interface GuardedMediaFetch {
  /**
   * Fetches `url` (with `headers` sent to its own origin only), at most `maxBytes` long
   * (`INBOUND_ATTACHMENT_MAX_BYTES` by default).
   */
  fetch(
    url: string,
    headers?: Readonly<Record<string, string>>,
    maxBytes?: number,
  ): Promise<FetchedFile>;
  /** Closes the connections. */
  close(): Promise<void>;
}

/**
 * Fetches files by URL the way the gateway fetches every URL it did not choose (inbound media of
 * upstreams, customers' media URLs an adapter must upload): through the address guard, bounded by
 * `INBOUND_ATTACHMENT_MAX_BYTES` and 30 s.
 */
export function createGuardedMediaFetch(
  config: Pick<Config, 'webhookAllowPrivateUrls' | 'inboundAttachmentMaxBytes'>,
): GuardedMediaFetch {
  const dispatcher = createSafeDispatcher({ allowPrivate: config.webhookAllowPrivateUrls });
  return {
    fetch: (url, headers = {}, maxBytes = config.inboundAttachmentMaxBytes) =>
      fetchAttachment(url, headers, {
        dispatcher,
        allowPrivate: config.webhookAllowPrivateUrls,
        maxBytes,
        timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
      }),
    close: () => dispatcher.close(),
  };
}
