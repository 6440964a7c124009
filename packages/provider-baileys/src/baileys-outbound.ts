import { WHATSAPP_TAPBACK_EMOJI } from '@switchboard/contract';
import type {
  ProviderOutboundAttachment,
  ProviderReaction,
  ProviderSendRequest,
} from '@switchboard/provider-kit';
import type { AnyMessageContent, WAMediaUpload } from 'baileys';
import { jidOfAddress } from './jids';

/** The emoji a reaction sends on WhatsApp: an emoji as is, a tapback as the spec's table says. */
export function reactionEmoji(reaction: ProviderReaction): string {
  return reaction.type === 'emoji' ? reaction.emoji : WHATSAPP_TAPBACK_EMOJI[reaction.type];
}

function mediaOf(attachment: ProviderOutboundAttachment): WAMediaUpload {
  return attachment.source.kind === 'bytes'
    ? Buffer.from(attachment.source.data)
    : { url: attachment.source.url };
}

/** One attachment as a WhatsApp message, with `caption` where the kind takes one. */
function attachmentContent(
  attachment: ProviderOutboundAttachment,
  caption: string | undefined,
): { content: AnyMessageContent; captioned: boolean } {
  const media = mediaOf(attachment);
  const mimetype = attachment.mimeType;
  const withCaption = caption ? { caption } : {};
  if (attachment.isAudioMessage) {
    // Voice notes are push-to-talk OGG/Opus (the gateway transcodes them); audio takes no caption.
    return {
      content: { audio: media, ptt: true, mimetype: 'audio/ogg; codecs=opus' },
      captioned: false,
    };
  }
  // Other audio is a generic file (spec rule 7): Baileys would send any `audio` as a WhatsApp
  // audio message, so it goes as a document and falls through below.
  if (mimetype.startsWith('image/') && mimetype !== 'image/gif') {
    return { content: { image: media, mimetype, ...withCaption }, captioned: true };
  }
  if (mimetype.startsWith('video/') || mimetype === 'image/gif') {
    return {
      content: {
        video: media,
        mimetype: mimetype === 'image/gif' ? 'video/mp4' : mimetype,
        ...(mimetype === 'image/gif' ? { gifPlayback: true } : {}),
        ...withCaption,
      },
      captioned: true,
    };
  }
  return {
    content: {
      document: media,
      mimetype,
      fileName: attachment.filename ?? 'file',
      ...withCaption,
    },
    captioned: true,
  };
}

/** One WhatsApp message of a send, and whether it is the text part. */
export interface OutboundPart {
  /** The content for `sendMessage`. */
  content: AnyMessageContent;
  /** What the part carries. */
  kind: 'text' | 'attachment';
}

/**
 * The WhatsApp messages of one send: the text rides as the caption of the first attachment that
 * takes one (one message, as WhatsApp users send it), otherwise it goes first on its own; each
 * further attachment is its own message. Mentions go with the text.
 */
export function outboundParts(request: ProviderSendRequest): OutboundPart[] {
  const text = request.text ?? '';
  const mentions = (request.mentions ?? []).map((mention) => jidOfAddress(mention.address));
  const withMentions = mentions.length > 0 ? { mentions } : {};
  const attachments = [
    ...(request.mediaUrls ?? []).map(
      (url): ProviderOutboundAttachment => ({
        source: { kind: 'url', url },
        mimeType: 'image/jpeg',
      }),
    ),
    ...(request.attachments ?? []),
  ];
  const parts: OutboundPart[] = [];
  let textSent = text === '';
  for (const attachment of attachments) {
    const built = attachmentContent(attachment, textSent ? undefined : text);
    if (!textSent && built.captioned) {
      parts.push({
        content: { ...built.content, ...withMentions } as AnyMessageContent,
        kind: 'text',
      });
      textSent = true;
    } else {
      parts.push({ content: built.content, kind: 'attachment' });
    }
  }
  if (!textSent) parts.unshift({ content: { text, ...withMentions }, kind: 'text' });
  return parts;
}
