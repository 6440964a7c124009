import type { Channel } from '@switchboard/contract';
import type { ProviderOutboundAttachment, ProviderSendRequest } from '@switchboard/provider-kit';
import type { MessageRecord } from '../../store/message-repository';
import type { Store } from '../../store/store';
import type { PreparedFile } from '../media/outbound-media';
import { destinationOf, providerRefOf } from './provider-message-ref';

/** Dependencies of {@link ProviderRequests}. */
export interface ProviderRequestOptions {
  /** The store (reply targets, stored attachment bytes). */
  store: Store;
  /** The signed public URL of a stored attachment's bytes (see `outboundMediaId`). */
  mediaUrlOf: (messageId: string, position: number) => Promise<string>;
  /** The signed public URL of converted bytes (their id in the conversion cache). */
  renditionUrlOf?: ((renditionId: string) => Promise<string>) | undefined;
}

/**
 * Builds the provider request of one attempt: what the channel takes of the message (effects,
 * replies and mentions only where they apply) and its files as the provider sees them.
 */
export class ProviderRequests {
  /** Requests over the given dependencies. */
  constructor(private readonly options: ProviderRequestOptions) {}

  /** The provider request of one attempt: effects, replies and mentions only where they apply. */
  async build(
    message: MessageRecord,
    channel: Channel,
    attemptId: string,
    files: PreparedFile[] | undefined,
  ): Promise<ProviderSendRequest> {
    const replyTo = await this.#replyRef(message, channel);
    const attachments =
      files === undefined ? await this.#attachments(message) : await this.#prepared(message, files);
    return {
      channel,
      from: message.from,
      to: destinationOf(message),
      messageId: message.id,
      attempt: message.retryCount,
      attemptId,
      ...(message.text === '' ? {} : { text: message.text }),
      ...(message.mediaUrls === null ? {} : { mediaUrls: message.mediaUrls }),
      // The spec drops `messageType` on whatsapp sends.
      ...(message.messageType === 'carousel' && channel !== 'whatsapp'
        ? { messageType: 'carousel' as const }
        : {}),
      ...(attachments.length === 0 ? {} : { attachments }),
      // Effects are iMessage's: ignored on an sms fallback, dropped on whatsapp (rule 9).
      ...(message.effect !== null && channel === 'imessage' ? { effect: message.effect } : {}),
      ...(replyTo ? { replyTo } : {}),
      // Mentions are honoured on whatsapp group sends only.
      ...(message.mentions !== null && message.isGroup && channel === 'whatsapp'
        ? { mentions: message.mentions }
        : {}),
      ...(message.createContact === null ? {} : { createContact: message.createContact }),
    };
  }

  /** The reply target as the provider addresses it, on the channels that thread (not sms). */
  async #replyRef(message: MessageRecord, channel: Channel) {
    if (message.replyTo === null || channel === 'sms') return undefined;
    const target = await this.options.store.messages.findById(message.customerId, message.replyTo);
    if (!target || target.channel !== channel) return undefined;
    return providerRefOf(target);
  }

  /** The provider's view of prepared files; converted bytes get their own public URL. */
  async #prepared(
    message: MessageRecord,
    files: readonly PreparedFile[],
  ): Promise<ProviderOutboundAttachment[]> {
    const attachments: ProviderOutboundAttachment[] = [];
    for (const file of files) {
      const stored = message.attachments.find((a) => a.position === file.position);
      const converted = file.renditionId !== undefined;
      const publicUrl =
        file.renditionId !== undefined
          ? await this.options.renditionUrlOf?.(file.renditionId)
          : file.source.kind === 'bytes'
            ? await this.options.mediaUrlOf(message.id, file.position)
            : undefined;
      const filename = stored?.filename ?? null;
      attachments.push({
        source: file.source,
        mimeType: file.mimeType,
        ...(filename === null ? {} : { filename: converted ? renamed(filename, file) : filename }),
        ...(stored?.isAudioMessage ? { isAudioMessage: true } : {}),
        ...(publicUrl === undefined ? {} : { publicUrl }),
      });
    }
    return attachments;
  }

  /** The message's files as stored (no media preparation): bytes or the customer's URL. */
  async #attachments(message: MessageRecord): Promise<ProviderOutboundAttachment[]> {
    if (message.attachments.length === 0) return [];
    const data = message.attachments.some((attachment) => attachment.hasData)
      ? await this.options.store.messages.attachmentData(message.id)
      : new Map<number, Uint8Array>();
    const attachments: ProviderOutboundAttachment[] = [];
    for (const attachment of message.attachments) {
      const bytes = data.get(attachment.position);
      const source = bytes
        ? { kind: 'bytes' as const, data: bytes }
        : attachment.url === null
          ? undefined
          : { kind: 'url' as const, url: attachment.url };
      if (!source) continue;
      attachments.push({
        source,
        mimeType: attachment.mimeType ?? 'application/octet-stream',
        ...(attachment.filename === null ? {} : { filename: attachment.filename }),
        ...(attachment.isAudioMessage ? { isAudioMessage: true } : {}),
        ...(bytes
          ? { publicUrl: await this.options.mediaUrlOf(message.id, attachment.position) }
          : {}),
      });
    }
    return attachments;
  }
}

/** A converted file's name: the original's with the new format's extension. */
function renamed(filename: string, file: PreparedFile): string {
  if (file.extension === undefined) return filename;
  const dot = filename.lastIndexOf('.');
  return `${dot > 0 ? filename.slice(0, dot) : filename}.${file.extension}`;
}
