import type { Message, SendMessageResult } from '@switchboard/contract';
import type { MessageRecord } from '../../store/message-repository';

/** A stored message as the API shows it: `to` or `conversationId`, never the attachment bytes. */
export function toMessageView(record: MessageRecord): Message {
  return {
    id: record.id,
    direction: record.direction,
    status: record.status,
    ...recipientOf(record),
    from: record.from,
    channel: record.channel,
    content: {
      text: record.text,
      ...(record.mediaUrls === null ? {} : { mediaUrls: record.mediaUrls }),
    },
    attachments: record.attachments.map((attachment) => ({
      mimeType: attachment.mimeType,
      filename: attachment.filename,
      totalBytes: attachment.totalBytes,
      isAudioMessage: attachment.isAudioMessage,
      url: attachment.url,
      downloadUrl: attachment.downloadUrl,
    })),
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

/** The 202 answer of a send. */
export function toSendResult(record: MessageRecord): SendMessageResult {
  return {
    id: record.id,
    status: record.status === 'scheduled' ? 'scheduled' : 'queued',
    ...recipientOf(record),
    from: record.from,
    createdAt: record.createdAt.toISOString(),
  };
}

/**
 * Exactly one of `to` and `conversationId`: a chat-keyed send shows its chat in place of the
 * recipient, as the spec's send answer does.
 */
export function recipientOf(record: MessageRecord): { to: string } | { conversationId: string } {
  if (record.to === null && record.conversationId !== null) {
    return { conversationId: record.conversationId };
  }
  return { to: record.to ?? '' };
}
