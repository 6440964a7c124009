import type { ProviderInboundAttachment } from '@switchboard/provider-kit';
import { type proto, toNumber, type WAMessage } from 'baileys';
import type { InboundContext } from './inbound-context';

/** The media message kinds and the MIME type to assume when the sender gave none. */
const MEDIA_KINDS = {
  imageMessage: 'image/jpeg',
  videoMessage: 'video/mp4',
  audioMessage: 'audio/ogg; codecs=opus',
  documentMessage: 'application/octet-stream',
  stickerMessage: 'image/webp',
  /** A video note (round video): a video like any other. */
  ptvMessage: 'video/mp4',
} as const;
type MediaKind = keyof typeof MEDIA_KINDS;

/** The media of a message, its bytes downloaded (or why they could not be). */
export async function attachmentsOf(
  content: proto.IMessage,
  message: WAMessage,
  context: InboundContext,
): Promise<ProviderInboundAttachment[]> {
  const kind = (Object.keys(MEDIA_KINDS) as MediaKind[]).find((name) => content[name]);
  if (!kind) return [];
  const media = content[kind] as {
    mimetype?: string | null;
    fileName?: string | null;
    fileLength?: unknown;
  };
  const size = toNumber(media.fileLength as number | null | undefined);
  return [
    {
      mimeType: media.mimetype ?? MEDIA_KINDS[kind],
      ...(media.fileName ? { filename: media.fileName } : {}),
      ...(size > 0 ? { totalBytes: size } : {}),
      content: await context.download(message).then(
        (data) => ({ kind: 'bytes' as const, data }),
        (error: unknown) => ({
          kind: 'unavailable' as const,
          reason: `the media could not be downloaded from WhatsApp: ${String(error)}`,
        }),
      ),
    },
  ];
}
