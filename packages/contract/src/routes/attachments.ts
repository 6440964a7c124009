import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { AttachmentDownloadQuery, AttachmentPathParams } from '../schemas/attachment-download';
import { errors } from '../schemas/common';

/**
 * The Attachments route: the pre-signed download URL of a stored attachment. The signature in the
 * query is the credential, so no API key is needed and the per-key rate limit does not apply.
 */
export const attachmentsContract = c.router({
  download: {
    method: 'GET',
    path: '/v1/attachments/:id',
    summary: 'Download an attachment',
    description:
      "The bytes of a stored attachment, served with the file's own Content-Type (its MIME type, e.g. `image/jpeg`, `application/pdf`; `application/octet-stream` when unknown) and a Content-Disposition carrying the file name: an inbound attachment (`att_…`, through its `downloadUrl`, valid 1 hour), or a `base64` attachment of a send (`media_…`, the URL handed to upstreams that fetch media by URL, valid 24 hours, gone with the message). Needs no API key. A bad or expired signature answers 403 `FORBIDDEN` in the JSON envelope.",
    pathParams: AttachmentPathParams,
    query: AttachmentDownloadQuery,
    responses: {
      // The file's own type (image/jpeg, application/pdf…): any media type.
      200: c.otherResponse({ contentType: '*/*', body: z.unknown() }),
      ...errors('VALIDATION_ERROR', 'FORBIDDEN', 'NOT_FOUND', 'INTERNAL_ERROR'),
    },
    metadata: { tag: 'Attachments', auth: false, rateLimited: false } satisfies RouteMetadata,
  },
});
