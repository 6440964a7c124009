import type { Channel } from '@switchboard/contract';
import {
  channelMediaLimits,
  formatBytes,
  kindLabel,
  maxBytesFor,
  mediaKindOf,
} from '../../media/media-limits';
import type { MessageRecord } from '../../store/message-repository';
import type { Store } from '../../store/store';
import { DomainError } from '../domain-error';

/**
 * The channels a send may use, in order, each with the instance that would carry it: the send
 * path's routing (`domain/messages`), handed in so that media, which messages use, never imports
 * them back.
 */
export type RoutedChannels = (
  message: MessageRecord,
) => Promise<ReadonlyArray<{ channel: Channel; instanceId: string }>>;

/**
 * The size check of a send's files at the request, where their size is known (`base64` data):
 * a file larger than every channel the send may use takes is refused with 400
 * `ATTACHMENT_TOO_LARGE`, naming the attachment and the limits. A file only some of its channels
 * take is accepted; those channels are skipped at delivery (see `OutboundMedia`).
 */
export class MediaLimitCheck {
  /** A check reading instance limits from `store`, for the channels `routedChannels` names. */
  constructor(
    private readonly store: Pick<Store, 'instances'>,
    private readonly routedChannels: RoutedChannels,
  ) {}

  /**
   * Refuses `message` when one of its known-size files fits none of its channels.
   * @throws {DomainError} ATTACHMENT_TOO_LARGE.
   */
  async assertFits(message: MessageRecord): Promise<void> {
    const sized = message.attachments.filter((attachment) => attachment.totalBytes !== null);
    if (sized.length === 0) return;
    const channels = await this.routedChannels(message);
    const limits = await Promise.all(
      channels.map(async ({ channel, instanceId }) => {
        const instance = await this.store.instances.findById(instanceId);
        return { channel, limits: channelMediaLimits(instance?.config.mediaLimits) };
      }),
    );
    for (const attachment of sized) {
      const size = attachment.totalBytes ?? 0;
      const kind = mediaKindOf(attachment.mimeType ?? 'application/octet-stream');
      const allowed = limits.map(({ channel, limits: of }) => ({
        channel,
        max: maxBytesFor(channel, kind, of),
      }));
      if (allowed.some(({ max }) => size <= max)) continue;
      const what = kindLabel(kind);
      throw new DomainError(
        'ATTACHMENT_TOO_LARGE',
        `attachments[${attachment.position}] (${attachment.mimeType}, ${formatBytes(size)}) is larger than ${allowed
          .map(({ channel, max }) => `the ${formatBytes(max)} limit of ${what} on ${channel}`)
          .join(' and ')}`,
      );
    }
  }
}
