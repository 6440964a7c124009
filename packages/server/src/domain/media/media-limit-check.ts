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
import { channelRoutes } from '../messages/channel-routes';
import { channelsToTry } from '../messages/routing-plan';

/**
 * The size check of a send's files at the request, where their size is known (`base64` data):
 * a file larger than every channel the send may use takes is refused with 400
 * `ATTACHMENT_TOO_LARGE`, naming the attachment and the limits. A file only some of its channels
 * take is accepted; those channels are skipped at delivery (see `OutboundMedia`).
 */
export class MediaLimitCheck {
  /** A check reading instance limits from `store`. */
  constructor(private readonly store: Pick<Store, 'numbers' | 'instances'>) {}

  /**
   * Refuses `message` when one of its known-size files fits none of its channels.
   * @throws {DomainError} ATTACHMENT_TOO_LARGE.
   */
  async assertFits(message: MessageRecord): Promise<void> {
    const sized = message.attachments.filter((attachment) => attachment.totalBytes !== null);
    if (sized.length === 0) return;
    const channels = channelsToTry(message);
    const routeOf = await channelRoutes(this.store, message);
    const limits = await Promise.all(
      channels.map(async (channel) => {
        const instance = await this.store.instances.findById(routeOf(channel));
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
