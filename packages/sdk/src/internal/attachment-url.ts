import { SwitchboardError } from '../core/errors';
import type { AttachmentDownloadQuery, AttachmentPathParams } from '../generated/api-types';

/** The parts of a pre-signed attachment URL: the attachment id and the signature's query. */
export type AttachmentLocator = AttachmentPathParams & AttachmentDownloadQuery;

/** Where a download URL's path names the attachment (any prefix before it is the server's). */
const DOWNLOAD_PATH = /\/v1\/attachments\/([^/]+)$/;

/**
 * Reads the attachment id, `expires` and `signature` out of a `downloadUrl`. The URL's origin is
 * ignored on purpose: the server signs the id and expiry only, and the client's `baseUrl` is the
 * address this program reaches the server at (the URL's host may be a public name, or
 * `PUBLIC_BASE_URL` may be unset).
 */
export function parseAttachmentUrl(url: string | URL): AttachmentLocator {
  let parsed: URL;
  try {
    // A relative URL (`/v1/attachments/…`) is accepted too; its base is never used.
    parsed = new URL(url, 'http://switchboard.invalid');
  } catch (cause) {
    throw new SwitchboardError(`Not a URL: ${String(url)}`, { cause });
  }
  const match = DOWNLOAD_PATH.exec(parsed.pathname);
  const id = match?.[1];
  const expires = parsed.searchParams.get('expires');
  const signature = parsed.searchParams.get('signature');
  if (id === undefined || expires === null || signature === null) {
    throw new SwitchboardError(
      `Not an attachment download URL (expected …/v1/attachments/<id>?expires=…&signature=…): ${parsed.pathname}`,
    );
  }
  return { id: decodeURIComponent(id), expires: Number(expires), signature };
}
