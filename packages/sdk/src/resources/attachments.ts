import { APIPromise } from '../core/api-promise';
import type { APIResponse, RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import { routeTable } from '../generated/route-table';
import { type AttachmentLocator, parseAttachmentUrl } from '../internal/attachment-url';
import { filenameFromContentDisposition } from '../internal/content-disposition';
import { routeSpec } from '../internal/route-call';

/**
 * Which attachment to download: its pre-signed `downloadUrl` (from `message.inbound` or a
 * message's `attachments`), or the URL's parts.
 */
export type AttachmentDownloadParams = string | URL | AttachmentLocator;

/** A downloaded attachment: its bytes and how the server describes them. */
export interface AttachmentDownload {
  /** The file's bytes. */
  data: Uint8Array;
  /** The stored MIME type (the `Content-Type` of the response). */
  contentType: string;
  /** The file name the sender gave; null when it gave none. */
  filename: string | null;
}

/** Files received with inbound messages, downloaded through their pre-signed URLs. */
export class Attachments extends APIResource {
  /**
   * Downloads an attachment through its pre-signed URL (valid one hour; needs no API key, so no
   * key is sent). The request goes to the client's `baseUrl` whatever host the URL names. A bad or
   * expired signature throws `PermissionDeniedError` (`FORBIDDEN`): fetch the message again with
   * `client.messages.get(id)` for a fresh URL.
   * @example
   * const { data, contentType, filename } = await client.attachments.download(attachment.downloadUrl);
   * await writeFile(filename ?? 'attachment', data);
   */
  download(
    params: AttachmentDownloadParams,
    options?: RequestOptions,
  ): APIPromise<AttachmentDownload> {
    return new APIPromise(
      Promise.resolve().then(async () => {
        const { id, expires, signature } =
          typeof params === 'string' || params instanceof URL ? parseAttachmentUrl(params) : params;
        const spec = routeSpec(routeTable.attachments.download, {
          params: { id },
          query: { expires, signature },
          binary: true,
        });
        const response = await this._transport.request<Uint8Array>(spec, options);
        return toDownload(response);
      }),
    );
  }
}

function toDownload(response: APIResponse<Uint8Array>): APIResponse<AttachmentDownload> {
  const { headers } = response;
  return {
    ...response,
    data: {
      data: response.data,
      contentType: headers.get('content-type') ?? 'application/octet-stream',
      filename: filenameFromContentDisposition(headers.get('content-disposition')),
    },
  };
}
