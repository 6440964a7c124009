import type { contract } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type AttachmentDownloads,
  contentDisposition,
} from '../domain/attachments/attachment-download';

/**
 * The stored Content-Type of each download in flight. ts-rest stamps the contract's generic
 * `application/octet-stream` on the response just before sending it, so the real type is put back
 * in the route's `onSend` hook, which runs after.
 */
const downloadTypes = new WeakMap<FastifyRequest, string>();

/** `GET /v1/attachments/:id`: the signed download URL of inbound attachments (no API key). */
export function attachmentsRoutes(services: {
  attachmentDownloads: AttachmentDownloads;
}): RouterImplementation<typeof contract.attachments> {
  return {
    download: {
      handler: async ({ params, query, request, reply }) => {
        const file = await services.attachmentDownloads.download({
          id: params.id,
          expires: query.expires,
          signature: query.signature,
        });
        downloadTypes.set(request, file.mimeType);
        reply.header('content-disposition', contentDisposition(file.filename));
        // The bytes are the customer's data: no shared cache may keep them past the URL's life.
        reply.header('cache-control', 'private, max-age=0, no-store');
        reply.header('x-content-type-options', 'nosniff');
        return { status: 200, body: Buffer.from(file.data) };
      },
      hooks: {
        onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
          const type = downloadTypes.get(request);
          if (type !== undefined) reply.header('content-type', type);
          return payload;
        },
      },
    },
  };
}
