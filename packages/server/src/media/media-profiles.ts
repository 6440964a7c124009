/** A conversion the gateway knows how to make, as FFmpeg arguments between input and output. */
export interface MediaProfile {
  /** Stable name: part of the conversion cache's key, so a changed recipe needs a new name. */
  name: string;
  /** The MIME type of the result. */
  mimeType: string;
  /** The result's extension (for its file name). */
  extension: string;
  /** The codecs of the result, as ffprobe names them. */
  codecs: readonly string[];
  /** `repackaged` when the streams are copied as they are, `transcoded` when any is re-encoded. */
  action: 'transcoded' | 'repackaged';
  /** FFmpeg output options (after `-i <input>`, before the output file). */
  args: readonly string[];
}

/** MP4 that starts playing before the whole file arrived (the index first). */
const FASTSTART = ['-movflags', '+faststart'] as const;
/** The first video stream and the first audio stream when there is one; nothing else. */
const FIRST_STREAMS = ['-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn'] as const;
/** H.264 (yuv420p, even dimensions, as every phone decodes it). */
const H264 = [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '26',
  '-pix_fmt',
  'yuv420p',
  '-vf',
  'scale=trunc(iw/2)*2:trunc(ih/2)*2',
] as const;
/** Opus for speech: mono, 48 kHz, 32 kbit/s. */
const VOICE_OPUS = [
  '-vn',
  '-map',
  '0:a:0',
  '-c:a',
  'libopus',
  '-b:a',
  '32k',
  '-ar',
  '48000',
  '-ac',
  '1',
  '-application',
  'voip',
] as const;

/** The conversions, by what they are for. */
export const MEDIA_PROFILES = {
  /** An iMessage voice memo: Opus in CAF, what an iPhone records. */
  imessageVoice: {
    name: 'imessage-voice-opus-caf-v1',
    mimeType: 'audio/x-caf',
    extension: 'caf',
    codecs: ['opus'],
    action: 'transcoded',
    args: [...VOICE_OPUS, '-f', 'caf'],
  },
  /** A WhatsApp voice note (push-to-talk): Opus in Ogg. */
  whatsappVoice: {
    name: 'whatsapp-voice-opus-ogg-v1',
    mimeType: 'audio/ogg',
    extension: 'ogg',
    codecs: ['opus'],
    action: 'transcoded',
    args: [...VOICE_OPUS, '-f', 'ogg'],
  },
  /** A WhatsApp video from H.264 and AAC in another container: streams copied into MP4. */
  whatsappVideoRepackaged: {
    name: 'whatsapp-video-remux-v1',
    mimeType: 'video/mp4',
    extension: 'mp4',
    codecs: ['h264', 'aac'],
    action: 'repackaged',
    args: [...FIRST_STREAMS, '-c', 'copy', ...FASTSTART, '-f', 'mp4'],
  },
  /** A WhatsApp video whose H.264 is kept and whose sound becomes AAC. */
  whatsappVideoNewAudio: {
    name: 'whatsapp-video-copy-h264-aac-v1',
    mimeType: 'video/mp4',
    extension: 'mp4',
    codecs: ['h264', 'aac'],
    action: 'transcoded',
    args: [
      ...FIRST_STREAMS,
      '-c:v',
      'copy',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      ...FASTSTART,
      '-f',
      'mp4',
    ],
  },
  /** Any other video for WhatsApp (or for a browser): H.264 and AAC in MP4. */
  h264Mp4: {
    name: 'video-h264-aac-mp4-v1',
    mimeType: 'video/mp4',
    extension: 'mp4',
    codecs: ['h264', 'aac'],
    action: 'transcoded',
    args: [...FIRST_STREAMS, ...H264, '-c:a', 'aac', '-b:a', '128k', ...FASTSTART, '-f', 'mp4'],
  },
  /** Audio a browser plays: AAC in M4A. */
  aacM4a: {
    name: 'audio-aac-m4a-v1',
    mimeType: 'audio/mp4',
    extension: 'm4a',
    codecs: ['aac'],
    action: 'transcoded',
    args: ['-vn', '-map', '0:a:0', '-c:a', 'aac', '-b:a', '96k', ...FASTSTART, '-f', 'mp4'],
  },
} as const satisfies Record<string, MediaProfile>;
