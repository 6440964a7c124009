import type { StoredAttachmentRepository } from '../../store/stored-attachment-repository';
import { DomainError } from '../domain-error';
import type { AttachmentSigner } from './attachment-signer';

/** The bytes of an attachment and how to serve them. */
export interface AttachmentDownload {
  /** The stored MIME type. */
  mimeType: string;
  /** The stored file name, when the sender gave one. */
  filename: string | null;
  /** The bytes. */
  data: Uint8Array;
}

/**
 * Serves `GET /v1/attachments/:id`: the signature is the credential (no API key), checked before
 * the attachment is looked up, so an unsigned probe learns nothing about which ids exist.
 */
export class AttachmentDownloads {
  /** Downloads checked by `signer`, read from `attachments`. */
  constructor(
    private readonly signer: AttachmentSigner,
    private readonly attachments: StoredAttachmentRepository,
  ) {}

  /**
   * The attachment a signed URL names.
   * @throws {DomainError} FORBIDDEN for a wrong or expired signature, NOT_FOUND for an unknown id.
   */
  async download(request: {
    id: string;
    expires: number;
    signature: string;
  }): Promise<AttachmentDownload> {
    const check = await this.signer.check(request.id, request.expires, request.signature);
    if (check === 'invalid') {
      throw new DomainError('FORBIDDEN', 'The download URL signature is not valid');
    }
    if (check === 'expired') {
      throw new DomainError(
        'FORBIDDEN',
        'The download URL has expired (they are valid one hour); fetch the message again for a fresh one',
      );
    }
    const attachment = await this.attachments.findById(request.id);
    if (!attachment) throw new DomainError('NOT_FOUND', `No attachment ${request.id} exists`);
    return { mimeType: attachment.mimeType, filename: attachment.filename, data: attachment.data };
  }
}

/**
 * A `Content-Disposition` header carrying the file name: an ASCII fallback plus the RFC 5987
 * UTF-8 form, so non-ASCII names survive and quotes cannot break out of the header.
 */
export function contentDisposition(filename: string | null): string {
  if (filename === null) return 'attachment';
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
