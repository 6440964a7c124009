import type { InboundAttachment } from '@switchboard/contract';
import type { ProviderInboundAttachment } from '@switchboard/provider-kit';
import { newUuid } from '../../ids';
import { sniffMediaType } from '../../media/media-type';
import type { StoredAttachment } from '../../store/message-repository';
import type { Repositories } from '../../store/store';
import { AttachmentFetchError, type FetchedFile } from './attachment-fetcher';
import type { AttachmentSigner } from './attachment-signer';
import { mimeTypeFromName, OCTET_STREAM } from './mime-types';

/** An inbound attachment whose bytes were fetched (or could not be), ready to store. */
export interface PreparedAttachment {
  /** `att_<uuid v7>`, the id in the download URL. */
  id: string;
  /** Position among the message's attachments. */
  position: number;
  /** The upstream's attachment id (iMessage GUID). */
  providerId: string | null;
  /** MIME type. */
  mimeType: string;
  /** File name, when the sender gave one. */
  filename: string | null;
  /** Size in bytes (as announced when the bytes are missing; 0 when unknown). */
  totalBytes: number;
  /** The bytes and their signed URL; or why they are missing. */
  content:
    | { kind: 'stored'; data: Uint8Array; downloadUrl: string }
    | { kind: 'missing'; note: string };
  /** Browser-playable copies, when made. */
  renditions: PreparedRendition[];
}

/** A browser-playable copy of an inbound attachment, ready to store. */
interface PreparedRendition {
  /** `att_<uuid v7>` of the copy. */
  id: string;
  /** Its MIME type. */
  mimeType: string;
  /** Its bytes. */
  data: Uint8Array;
  /** Its signed download URL. */
  downloadUrl: string;
}

/** How inbound attachment bytes are obtained and signed. */
export interface InboundAttachmentDeps {
  /** Signs download URLs. */
  signer: AttachmentSigner;
  /** Fetches a URL the upstream gave (with its headers). */
  fetch: (url: string, headers: Readonly<Record<string, string>>) => Promise<FetchedFile>;
  /** The largest attachment stored. */
  maxBytes: number;
  /**
   * Makes browser-playable copies of voice notes and videos (`INBOUND_MEDIA_RENDITIONS`): the
   * media side's `InboundRenditions`, named by shape because media uses attachments (its fetcher),
   * not the other way round.
   */
  renditions?: {
    of(data: Uint8Array, mimeType: string): Promise<Array<{ mimeType: string; data: Uint8Array }>>;
  };
}

/**
 * Gets the bytes of every attachment of an inbound message (fetching the URLs upstreams give)
 * and signs their download URLs, before the message's transaction: network calls never run
 * inside one. An attachment whose bytes cannot be had keeps its metadata and gets a `note`.
 */
export async function prepareInboundAttachments(
  deps: InboundAttachmentDeps,
  attachments: readonly ProviderInboundAttachment[],
): Promise<PreparedAttachment[]> {
  return Promise.all(
    attachments.map(async (attachment, position) => {
      const id = `att_${newUuid()}`;
      const base = {
        id,
        position,
        providerId: attachment.providerId ?? null,
        filename: attachment.filename ?? null,
      };
      const declared = attachment.mimeType || mimeTypeFromName(attachment.filename) || OCTET_STREAM;
      const missing = (note: string): PreparedAttachment => ({
        ...base,
        mimeType: declared,
        totalBytes: attachment.totalBytes ?? 0,
        content: { kind: 'missing', note },
        renditions: [],
      });
      const content = attachment.content;
      if (content.kind === 'unavailable') return missing(content.reason);
      let data: Uint8Array;
      let mimeType = declared;
      if (content.kind === 'bytes') {
        data = content.data;
      } else {
        try {
          const fetched = await deps.fetch(content.url, content.headers ?? {});
          data = fetched.data;
          if (!attachment.mimeType && fetched.contentType) mimeType = fetched.contentType;
        } catch (error) {
          if (error instanceof AttachmentFetchError) return missing(error.message);
          throw error;
        }
      }
      if (data.byteLength > deps.maxBytes) {
        return missing(`the file is larger than the ${deps.maxBytes}-byte limit`);
      }
      // Stored as it came, under the type its bytes prove (a CAF voice note, not `audio/mpeg`).
      mimeType = (await sniffMediaType(data))?.mimeType ?? mimeType;
      const downloadUrl = await deps.signer.urlFor(id);
      const renditions = await Promise.all(
        ((await deps.renditions?.of(data, mimeType)) ?? []).map(async (copy) => {
          const copyId = `att_${newUuid()}`;
          return { id: copyId, ...copy, downloadUrl: await deps.signer.urlFor(copyId) };
        }),
      );
      return {
        ...base,
        mimeType,
        totalBytes: data.byteLength,
        content: { kind: 'stored', data, downloadUrl },
        renditions,
      };
    }),
  );
}

/** Stores the bytes of the prepared attachments of a message, in the message's transaction. */
export async function saveInboundAttachments(
  repos: Repositories,
  owner: { customerId: string; messageId: string },
  prepared: readonly PreparedAttachment[],
  at: Date,
): Promise<void> {
  for (const attachment of prepared) {
    if (attachment.content.kind !== 'stored') continue;
    await repos.storedAttachments.insert({
      id: attachment.id,
      customerId: owner.customerId,
      messageId: owner.messageId,
      position: attachment.position,
      providerId: attachment.providerId,
      mimeType: attachment.mimeType,
      filename: attachment.filename,
      totalBytes: attachment.totalBytes,
      data: attachment.content.data,
      createdAt: at,
    });
    for (const copy of attachment.renditions) {
      await repos.storedAttachments.insert({
        id: copy.id,
        customerId: owner.customerId,
        messageId: owner.messageId,
        position: attachment.position,
        providerId: null,
        mimeType: copy.mimeType,
        filename: null,
        totalBytes: copy.data.byteLength,
        data: copy.data,
        createdAt: at,
        renditionOf: attachment.id,
      });
    }
  }
}

/** An attachment as `message.inbound` shows it. */
export function toInboundAttachmentView(attachment: PreparedAttachment): InboundAttachment {
  return {
    ...(attachment.providerId === null ? {} : { guid: attachment.providerId }),
    mimeType: attachment.mimeType,
    ...(attachment.filename === null ? {} : { filename: attachment.filename }),
    totalBytes: attachment.totalBytes,
    ...(attachment.content.kind === 'stored'
      ? { downloadUrl: attachment.content.downloadUrl }
      : { note: attachment.content.note }),
    ...(attachment.renditions.length === 0
      ? {}
      : {
          renditions: attachment.renditions.map((copy) => ({
            mimeType: copy.mimeType,
            totalBytes: copy.data.byteLength,
            downloadUrl: copy.downloadUrl,
          })),
        }),
  };
}

/** An attachment as the Message resource stores it (metadata only). */
export function toMessageAttachment(attachment: PreparedAttachment): StoredAttachment {
  return {
    position: attachment.position,
    mimeType: attachment.mimeType,
    filename: attachment.filename,
    totalBytes: attachment.totalBytes,
    isAudioMessage: false,
    url: null,
    // The bytes live in the stored attachments, not with a send's base64 payloads.
    hasData: false,
    storedId: attachment.content.kind === 'stored' ? attachment.id : null,
    ...(attachment.renditions.length === 0
      ? {}
      : {
          renditions: attachment.renditions.map((copy) => ({
            storedId: copy.id,
            mimeType: copy.mimeType,
            totalBytes: copy.data.byteLength,
          })),
        }),
  };
}
