import { randomUUID } from 'node:crypto';
import {
  badRequest,
  isTruthy,
  notFound,
  ok,
  param,
  type Query,
  readMultipart,
} from './fake-bluebubbles-http';
import type { FakeRoute, FakeRouteHost } from './fake-bluebubbles-routes';

/**
 * Registers `POST /attachment/upload` and `GET /attachment/:guid/download`.
 *
 * The attachment resource of the fake BlueBubbles: uploads for multipart sends and downloads
 * (upstream's attachmentRouter).
 */
export function registerAttachmentRoutes(route: FakeRoute, host: FakeRouteHost): void {
  route('POST', '/attachment/upload', async (request) => {
    host.privateApiMiddleware();
    const { files } = await readMultipart(request);
    const file = files.attachment;
    if (!file || file.data.byteLength === 0) {
      throw badRequest('Attachment not provided or was empty!');
    }
    const path = `${randomUUID()}/${file.filename}`;
    host.uploads.set(path, { name: file.filename, data: file.data, mimeType: file.mimeType });
    return ok('Attachment uploaded!', { path });
  });

  route('GET', '/attachment/:guid/download', async (request, reply) => {
    const guid = param(request, 'guid');
    const original = isTruthy((request.query as Query).original);
    for (const message of host.messages.values()) {
      const found = message.attachments.find((attachment) => attachment.guid === guid);
      if (found) {
        // Without `original=true` HEIC is served as JPEG and CAF as MP3
        // (attachmentRouter.ts:61-71).
        const converted = original ? undefined : CONVERSIONS[found.mimeType];
        return reply
          .header('content-type', converted?.mimeType ?? found.mimeType)
          .send(Buffer.from(converted ? converted.convert(found.data) : found.data));
      }
    }
    throw notFound('Attachment does not exist!');
  });
}

/**
 * What the download route converts when `original` is not set (attachmentRouter.ts:61-71,
 * databases/imessage/helpers/utils.ts): HEIC to JPEG, CAF to MP3. The fake's "conversion" prefixes
 * a marker so a test can tell converted bytes from the original.
 */
const CONVERSIONS: Record<string, { mimeType: string; convert: (data: Uint8Array) => Uint8Array }> =
  {
    'image/heic': { mimeType: 'image/jpeg', convert: (data) => converted('JPEG', data) },
    'audio/x-caf': { mimeType: 'audio/mp3', convert: (data) => converted('MP3', data) },
  };

/** Marks bytes as converted to `marker`. */
function converted(marker: string, data: Uint8Array): Uint8Array {
  return new Uint8Array([...Buffer.from(`converted-to-${marker}:`), ...data]);
}
