import type { MediaRenditionRepository } from '../../store/media-rendition-repository';
import type { MessageRepository } from '../../store/message-repository';
import type { StoredAttachmentRepository } from '../../store/stored-attachment-repository';
import { DomainError } from '../domain-error';
import type { AttachmentSigner } from './attachment-signer';

/**
 * How long the URL of an outbound attachment's bytes stays valid: 24 hours, as an upstream may
 * fetch media when it actually sends (a queued MMS), not when it accepted the message.
 */
export const OUTBOUND_MEDIA_URL_TTL_SECONDS = 24 * 60 * 60;

/** The download id of the bytes of a sent message's attachment: `media_<message id>_<position>`. */
export function outboundMediaId(messageId: string, position: number): string {
  return `media_${messageId}_${position}`;
}

const OUTBOUND_MEDIA_ID = /^media_(msg_[0-9a-f-]{36})_(\d{1,3})$/;

/**
 * The download id of a converted outbound file: `conv_<input sha-256>_<conversion>` for the
 * conversion-cache id `<input sha-256>:<conversion>`.
 */
export function renditionDownloadId(renditionId: string): string {
  return `conv_${renditionId.replace(':', '_')}`;
}

const RENDITION_ID = /^conv_([0-9a-f]{64})_([a-z0-9-]{1,64})$/;

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
 * Serves `GET /v1/attachments/:id`: the bytes of inbound attachments (`att_…`) and of the
 * `base64` attachments of sends (`media_…`) and their conversions (`conv_…`), for upstreams that
 * fetch media by URL. The signature
 * is the credential (no API key), checked before anything is looked up, so an unsigned probe
 * learns nothing about which ids exist.
 */
export class AttachmentDownloads {
  /** Downloads checked by `signer`, read from `attachments` and the messages' stored bytes. */
  constructor(
    private readonly signer: AttachmentSigner,
    private readonly attachments: StoredAttachmentRepository,
    private readonly messages: Pick<MessageRepository, 'findByIdInAnyCustomer' | 'attachmentData'>,
    private readonly renditions: Pick<MediaRenditionRepository, 'findById'>,
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
    const outbound = OUTBOUND_MEDIA_ID.exec(request.id);
    if (outbound?.[1] && outbound[2])
      return this.#outbound(request.id, outbound[1], Number(outbound[2]));
    const converted = RENDITION_ID.exec(request.id);
    if (converted?.[1] && converted[2]) {
      const rendition = await this.renditions.findById(`${converted[1]}:${converted[2]}`);
      if (!rendition) throw new DomainError('NOT_FOUND', `No attachment ${request.id} exists`);
      return { mimeType: rendition.mimeType, filename: null, data: rendition.data };
    }
    const attachment = await this.attachments.findById(request.id);
    if (!attachment) throw new DomainError('NOT_FOUND', `No attachment ${request.id} exists`);
    return { mimeType: attachment.mimeType, filename: attachment.filename, data: attachment.data };
  }

  /** The stored bytes of a send's attachment; gone with the message. */
  async #outbound(id: string, messageId: string, position: number): Promise<AttachmentDownload> {
    const message = await this.messages.findByIdInAnyCustomer(messageId);
    const attachment = message?.attachments.find((a) => a.position === position);
    const data =
      message && message.deletedAt === null && attachment?.hasData
        ? (await this.messages.attachmentData(messageId)).get(position)
        : undefined;
    if (!attachment || !data) throw new DomainError('NOT_FOUND', `No attachment ${id} exists`);
    return {
      mimeType: attachment.mimeType ?? 'application/octet-stream',
      filename: attachment.filename,
      data,
    };
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
