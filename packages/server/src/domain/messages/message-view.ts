import type {
  AdminMessageList,
  Message,
  MessageAttachment,
  MessageList,
  SendMessageResult,
} from '@switchboard/contract';
import type { MessageRecord } from '../../store/message-repository';

/** A page of stored messages, as the list operations find them. */
export interface MessagePage {
  /** The messages of the page, in list order. */
  messages: MessageRecord[];
  /** Where the next page starts. */
  pagination: MessageList['pagination'];
}

/** Signs the download URL of stored attachment bytes (the attachment signer). */
export interface DownloadUrlSigner {
  /** A download URL for the stored attachment `id`, valid one hour from now. */
  urlFor(id: string): Promise<string>;
}

/**
 * Shows stored messages as the API's `Message`. A stored attachment's `downloadUrl` is signed at
 * each read, so a message fetched long after it arrived still links to its bytes for an hour.
 */
export class MessageViews {
  readonly #signer: DownloadUrlSigner;

  /** Views whose download URLs `signer` signs. */
  constructor(signer: DownloadUrlSigner) {
    this.#signer = signer;
  }

  /** One message: `to` or `conversationId`, never the attachment bytes. */
  async message(record: MessageRecord): Promise<Message> {
    const attachments = await Promise.all(
      record.attachments.map(
        async (attachment): Promise<MessageAttachment> => ({
          mimeType: attachment.mimeType,
          filename: attachment.filename,
          totalBytes: attachment.totalBytes,
          isAudioMessage: attachment.isAudioMessage,
          url: attachment.url,
          downloadUrl:
            attachment.storedId === null ? null : await this.#signer.urlFor(attachment.storedId),
          ...(attachment.conversion ? { conversion: attachment.conversion } : {}),
          ...(attachment.renditions
            ? {
                renditions: await Promise.all(
                  attachment.renditions.map(async (copy) => ({
                    mimeType: copy.mimeType,
                    totalBytes: copy.totalBytes,
                    downloadUrl: await this.#signer.urlFor(copy.storedId),
                  })),
                ),
              }
            : {}),
        }),
      ),
    );
    return {
      id: record.id,
      direction: record.direction,
      ...(record.source === 'device' ? { source: 'device' as const } : {}),
      status: record.status,
      ...(record.segments == null ? {} : { segments: record.segments }),
      ...(record.hold && record.status === 'queued'
        ? {
            hold: {
              code: record.hold.code,
              message: record.hold.message,
              until: new Date(record.hold.until).toISOString(),
            },
          }
        : {}),
      ...recipientOf(record),
      from: record.from,
      channel: record.channel,
      content: {
        text: record.text,
        ...(record.mediaUrls === null ? {} : { mediaUrls: record.mediaUrls }),
      },
      attachments,
      timeline: record.timeline.map((entry) => ({
        status: entry.status,
        at: new Date(entry.at).toISOString(),
        channel: entry.channel,
      })),
      fallbackTriggered: record.fallbackTriggered,
      metadata: record.metadata,
      externalId: record.externalId,
      errorCode: record.errorCode,
      errorMessage: record.errorMessage,
      retryCount: record.retryCount,
      scheduledAt: record.scheduledAt?.toISOString() ?? null,
      replyTo: record.replyTo,
      effect: record.effect,
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
    };
  }

  /** A page of messages. */
  async list(page: MessagePage): Promise<MessageList> {
    return {
      messages: await Promise.all(page.messages.map((record) => this.message(record))),
      pagination: page.pagination,
    };
  }
}

/** A page of messages across customers, each with its `customerId` (the operator's list). */
export async function toAdminMessageList(
  views: MessageViews,
  page: MessagePage,
): Promise<AdminMessageList> {
  return {
    messages: await Promise.all(
      page.messages.map(async (record) => ({
        ...(await views.message(record)),
        customerId: record.customerId,
      })),
    ),
    pagination: page.pagination,
  };
}

/** The 202 answer of a send. */
export function toSendResult(record: MessageRecord): SendMessageResult {
  return {
    id: record.id,
    status: record.scheduledAt === null ? 'queued' : 'scheduled',
    ...recipientOf(record),
    from: record.from,
    createdAt: record.createdAt.toISOString(),
  };
}

/**
 * Exactly one of `to` and `conversationId`: a chat-keyed send shows its chat in place of the
 * recipient, as the spec's send answer does.
 */
function recipientOf(record: MessageRecord): { to: string } | { conversationId: string } {
  if (record.to === null && record.conversationId !== null) {
    return { conversationId: record.conversationId };
  }
  return { to: record.to ?? '' };
}
