import type { Attachment } from '@switchboard/contract';
import { sniffMediaType } from '../../media/media-type';
import type { StoredAttachment } from '../../store/message-repository';
import { mimeTypeFromName, mimeTypeFromUrl, OCTET_STREAM } from '../attachments/mime-types';
import { DomainError } from '../domain-error';

/** Types the bytes of many formats share: a declared, more precise type wins over them. */
const GENERIC_CONTAINERS = new Set(['application/zip', 'application/x-cfb']);

/** The attachments of a send, ready to store: metadata for the message, bytes apart. */
export interface AttachmentIntake {
  /** Metadata, in request order. */
  attachments: StoredAttachment[];
  /** The decoded bytes of the `base64` attachments, by position. */
  data: Map<number, Uint8Array>;
}

/**
 * Decodes the `base64` attachments of a send and resolves each MIME type: the one the bytes prove
 * (sniffed from their magic numbers: a `.mp3` that is really a WAV is a WAV), else the one given,
 * the file name's or the URL's, `application/octet-stream` last. URL attachments are sniffed when
 * they are fetched, at delivery.
 * @throws {DomainError} VALIDATION_ERROR for a voice memo whose bytes are not audio.
 */
export async function takeInAttachments(
  items: readonly Attachment[] | undefined,
): Promise<AttachmentIntake> {
  const attachments: StoredAttachment[] = [];
  const data = new Map<number, Uint8Array>();
  for (const [position, item] of (items ?? []).entries()) {
    const bytes =
      item.data === undefined ? undefined : new Uint8Array(Buffer.from(item.data, 'base64'));
    if (bytes) data.set(position, bytes);
    const found = bytes ? (await sniffMediaType(bytes))?.mimeType : undefined;
    // A generic container (ZIP, OLE) says less than a declared type built on it (DOCX, Pages).
    const sniffed =
      found !== undefined && GENERIC_CONTAINERS.has(found) && item.mimeType !== undefined
        ? undefined
        : found;
    const mimeType =
      sniffed ??
      item.mimeType ??
      mimeTypeFromName(item.filename) ??
      (item.url === undefined ? undefined : mimeTypeFromUrl(item.url)) ??
      OCTET_STREAM;
    if (item.isAudioMessage === true && sniffed !== undefined && !sniffed.startsWith('audio/')) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `attachments[${position}] is a voice memo (isAudioMessage: true) but its bytes are ${sniffed}, not audio`,
      );
    }
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
  }
  return { attachments, data };
}
