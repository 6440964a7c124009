import type { Attachment } from '@switchboard/contract';
import type { StoredAttachment } from '../../store/message-repository';
import {
  mimeTypeFromBytes,
  mimeTypeFromName,
  mimeTypeFromUrl,
  OCTET_STREAM,
} from '../attachments/mime-types';

/** The attachments of a send, ready to store: metadata for the message, bytes apart. */
export interface AttachmentIntake {
  /** Metadata, in request order. */
  attachments: StoredAttachment[];
  /** The decoded bytes of the `base64` attachments, by position. */
  data: Map<number, Uint8Array>;
}

/**
 * Decodes the `base64` attachments of a send and resolves each MIME type: the one given, else the
 * file name's, the URL's, or the bytes' own, `application/octet-stream` last.
 */
export function takeInAttachments(items: readonly Attachment[] | undefined): AttachmentIntake {
  const attachments: StoredAttachment[] = [];
  const data = new Map<number, Uint8Array>();
  (items ?? []).forEach((item, position) => {
    const bytes =
      item.data === undefined ? undefined : new Uint8Array(Buffer.from(item.data, 'base64'));
    if (bytes) data.set(position, bytes);
    const mimeType =
      item.mimeType ??
      mimeTypeFromName(item.filename) ??
      (item.url === undefined ? undefined : mimeTypeFromUrl(item.url)) ??
      (bytes ? mimeTypeFromBytes(bytes) : undefined) ??
      OCTET_STREAM;
    attachments.push({
      position,
      mimeType,
      filename: item.filename ?? null,
      totalBytes: bytes ? bytes.length : null,
      isAudioMessage: item.isAudioMessage ?? false,
      url: item.url ?? null,
      hasData: bytes !== undefined,
      storedId: null,
    });
  });
  return { attachments, data };
}
