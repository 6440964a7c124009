import type { Channel } from '@switchboard/contract';

/** What a file is to a channel: its limits and conversions depend on it. */
export type MediaKind = 'image' | 'video' | 'audio' | 'document';

/** One mebibyte: the limits count in binary megabytes. */
const MB = 1024 * 1024;

/** WhatsApp's limits (spec): image 16 MB, video 64 MB, documents 100 MB; audio as images. */
const WHATSAPP_MAX_BYTES: Readonly<Record<MediaKind, number>> = {
  image: 16 * MB,
  video: 64 * MB,
  audio: 16 * MB,
  document: 100 * MB,
};

/** The default largest file on imessage: what iMessage carries (about 100 MB). */
const DEFAULT_IMESSAGE_MAX_BYTES = 100 * MB;

/** The default largest file on sms: one MMS through Twilio carries at most 5 MB of media. */
const DEFAULT_SMS_MAX_BYTES = 5 * MB;

/** The per-instance limits (`config.mediaLimits`), defaults applied. */
export interface ChannelMediaLimits {
  /** Largest file on imessage, in bytes. */
  imessageMaxBytes: number;
  /** Largest file (one MMS) on sms, in bytes. */
  smsMaxBytes: number;
}

/** The limits of an instance whose `config.mediaLimits` is `configured`. */
export function channelMediaLimits(configured: unknown): ChannelMediaLimits {
  const limits = (configured ?? {}) as Partial<ChannelMediaLimits>;
  return {
    imessageMaxBytes: limits.imessageMaxBytes ?? DEFAULT_IMESSAGE_MAX_BYTES,
    smsMaxBytes: limits.smsMaxBytes ?? DEFAULT_SMS_MAX_BYTES,
  };
}

/** The kind of a file of type `mimeType`. */
export function mediaKindOf(mimeType: string): MediaKind {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  return 'document';
}

/** How limits name a kind: `image files`, `video files`, `audio files`, `files`. */
export function kindLabel(kind: MediaKind): string {
  return kind === 'document' ? 'files' : `${kind} files`;
}

/** The largest file of `kind` that `channel` takes. */
export function maxBytesFor(channel: Channel, kind: MediaKind, limits: ChannelMediaLimits): number {
  if (channel === 'whatsapp') return WHATSAPP_MAX_BYTES[kind];
  return channel === 'imessage' ? limits.imessageMaxBytes : limits.smsMaxBytes;
}

/** The largest file of any kind that `channel` takes (the cap of a fetch before the type is known). */
export function largestFor(channel: Channel, limits: ChannelMediaLimits): number {
  if (channel === 'whatsapp') return Math.max(...Object.values(WHATSAPP_MAX_BYTES));
  return maxBytesFor(channel, 'document', limits);
}

/**
 * A size for people: `16 MB`, `5.5 MB`, `300 KB`.
 * @example formatBytes(16 * 1024 * 1024) // '16 MB'
 */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}
