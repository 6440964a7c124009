import { z } from 'zod';
import { doc } from '../schema-annotations';

// ---------------------------------------------------------------------------------------------
// Attachment download (the pre-signed URLs of stored attachments)
// ---------------------------------------------------------------------------------------------

/** `GET /v1/attachments/:id` path parameters. */
export const AttachmentPathParams = z.object({
  id: doc(z.string().min(1), {
    description: 'Id of the stored attachment, as it appears in a `downloadUrl`.',
    example: 'att_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
  }),
});
/** `GET /v1/attachments/:id` path parameters. */
export type AttachmentPathParams = z.infer<typeof AttachmentPathParams>;

/** `GET /v1/attachments/:id` query: the signature of a pre-signed URL. */
export const AttachmentDownloadQuery = z.object({
  expires: doc(z.coerce.number().int().min(1), {
    description: 'Unix time (seconds) after which the URL stops working.',
    example: 1795258800,
  }),
  signature: doc(
    z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be 64 lowercase hex characters' }),
    {
      description: 'Lowercase hex HMAC-SHA256 of the attachment id and `expires`.',
      example: '5d41402abc4b2a76b9719d911017c592e1b2f0c3a4d5e6f708192a3b4c5d6e7f',
    },
  ),
});
/** `GET /v1/attachments/:id` query. */
export type AttachmentDownloadQuery = z.infer<typeof AttachmentDownloadQuery>;
