import type { Channel } from '@switchboard/contract';
import { codecOf, type MediaProbe } from './media-probe';
import { MEDIA_PROFILES, type MediaProfile } from './media-profiles';

/** A file as the plan sees it: its real type and whether it is a voice memo. */
export interface PlannedFile {
  /** The MIME type the bytes proved (or the declared one when they prove nothing). */
  mimeType: string;
  /** The sniffed extension (`opus` tells Ogg Opus from Ogg Vorbis), when known. */
  extension: string | undefined;
  /** Sent as a voice memo. */
  isAudioMessage: boolean;
}

/** What a file needs before `channel` takes it: nothing, a look inside, or a conversion. */
export type MediaDecision =
  | { kind: 'as-is' }
  | { kind: 'probe' }
  | { kind: 'convert'; profile: MediaProfile };

const AS_IS: MediaDecision = { kind: 'as-is' };
const PROBE: MediaDecision = { kind: 'probe' };

/**
 * The spec's send rules 7 and 8 as a decision. Voice memos: imessage takes MP3 and Opus in CAF,
 * whatsapp Opus in Ogg, anything else is converted to those; on sms a voice memo is a plain file.
 * Video: imessage takes it as it is (no transcoding there); whatsapp takes MP4 with H.264 and
 * AAC, gets H.264 and AAC in another container repackaged, H.264 with other sound given AAC, and
 * anything else transcoded. Everything else (images, documents, audio without the flag) goes as
 * it is. `probe` is the container and codecs, once a `probe` decision asked for them.
 */
export function decideMedia(
  channel: Channel,
  file: PlannedFile,
  probe?: MediaProbe,
): MediaDecision {
  if (file.isAudioMessage && file.mimeType.startsWith('audio/')) {
    if (channel === 'imessage') {
      if (file.mimeType === 'audio/mpeg') return AS_IS;
      if (file.mimeType === 'audio/x-caf') {
        if (!probe) return PROBE;
        if (codecOf(probe, 'audio') === 'opus') return AS_IS;
      }
      return { kind: 'convert', profile: MEDIA_PROFILES.imessageVoice };
    }
    if (channel === 'whatsapp') {
      if (file.mimeType === 'audio/ogg' && file.extension === 'opus') return AS_IS;
      return { kind: 'convert', profile: MEDIA_PROFILES.whatsappVoice };
    }
    return AS_IS;
  }
  if (file.mimeType.startsWith('video/') && channel === 'whatsapp') {
    return probe ? toH264Mp4(file.mimeType, probe) : PROBE;
  }
  return AS_IS;
}

/** Audio every browser plays as it is. */
const BROWSER_AUDIO = new Set(['audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/wav']);

/**
 * What an inbound voice note or video needs to play in any browser: AAC in M4A for audio other
 * than MP3, AAC and WAV (CAF, Ogg, AMR); H.264 and AAC in MP4 for video, made as for whatsapp
 * (streams copied when they already are H.264 and AAC). `as-is` for everything else.
 */
export function decideBrowserRendition(mimeType: string, probe?: MediaProbe): MediaDecision {
  if (mimeType.startsWith('audio/')) {
    return BROWSER_AUDIO.has(mimeType)
      ? AS_IS
      : { kind: 'convert', profile: MEDIA_PROFILES.aacM4a };
  }
  if (mimeType.startsWith('video/')) return probe ? toH264Mp4(mimeType, probe) : PROBE;
  return AS_IS;
}

/** H.264 and AAC in MP4, changing as little as the streams allow. */
function toH264Mp4(mimeType: string, probe: MediaProbe): MediaDecision {
  const video = codecOf(probe, 'video');
  const audio = codecOf(probe, 'audio');
  if (video === 'h264' && (audio === undefined || audio === 'aac')) {
    return mimeType === 'video/mp4'
      ? AS_IS
      : { kind: 'convert', profile: MEDIA_PROFILES.whatsappVideoRepackaged };
  }
  if (video === 'h264') return { kind: 'convert', profile: MEDIA_PROFILES.whatsappVideoNewAudio };
  return { kind: 'convert', profile: MEDIA_PROFILES.h264Mp4 };
}
