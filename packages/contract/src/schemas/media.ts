import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Channel } from './common';

/** A file of a message in another form: a browser-playable copy of what a phone sent. */
export const AttachmentRendition = component(
  'AttachmentRendition',
  z.object({
    mimeType: doc(z.string(), { example: 'audio/mp4' }),
    totalBytes: doc(z.number().int().nonnegative(), { description: 'Size in bytes.' }),
    downloadUrl: doc(z.string().url(), {
      description: 'Pre-signed URL, valid one hour, no API key needed.',
    }),
  }),
  {
    description:
      'A browser-playable copy of an inbound voice note or video (AAC in M4A, H.264 and AAC in MP4), made when the server runs with `INBOUND_MEDIA_RENDITIONS=true`. The original stays as it came.',
  },
);
/** A browser-playable copy of an inbound file. */
export type AttachmentRendition = z.infer<typeof AttachmentRendition>;

/** One side of a conversion: a container type and the codecs inside it. */
const MediaForm = z.object({
  mimeType: doc(z.string(), { example: 'audio/wav' }),
  codecs: doc(z.array(z.string()), {
    description: 'The codecs of its streams, as FFmpeg names them (`opus`, `h264`, `aac`).',
    example: ['pcm_s16le'],
  }),
});

/** How an outbound file was changed so the channel's phones play it natively. */
export const MediaConversion = component(
  'MediaConversion',
  z.object({
    channel: Channel,
    action: doc(z.enum(['transcoded', 'repackaged']), {
      description:
        '`repackaged`: the streams were copied into another container unchanged (H.264 in MKV to MP4); `transcoded`: at least one stream was re-encoded.',
    }),
    from: MediaForm,
    to: MediaForm.extend({
      totalBytes: doc(z.number().int().nonnegative(), {
        description: 'Size of the file that was sent.',
      }),
    }),
  }),
  {
    description:
      'Present on an outbound attachment that was converted before the send (send rules 7 and 8): a voice memo to Opus in CAF (imessage) or Ogg (whatsapp), a video to H.264 and AAC in MP4 (whatsapp).',
    example: {
      channel: 'whatsapp',
      action: 'transcoded',
      from: { mimeType: 'audio/wav', codecs: ['pcm_s16le'] },
      to: { mimeType: 'audio/ogg', codecs: ['opus'], totalBytes: 48213 },
    },
  },
);
/** How an outbound file was changed for its channel. */
export type MediaConversion = z.infer<typeof MediaConversion>;

/** The per-instance size limits of files on imessage and sms (whatsapp's are fixed by the spec). */
export const InstanceMediaLimits = component(
  'InstanceMediaLimits',
  z
    .object({
      imessageMaxBytes: doc(z.number().int().min(1).optional(), {
        description: 'Largest file sent on imessage, in bytes. Default 104857600 (100 MB).',
        example: 104857600,
      }),
      smsMaxBytes: doc(z.number().int().min(1).optional(), {
        description:
          'Largest file sent on sms (one MMS), in bytes. Default 5242880 (5 MB, what Twilio accepts per message).',
        example: 5242880,
      }),
    })
    .strict(),
  {
    description:
      'Size limits of outbound files per channel. whatsapp: image 16 MB, video 64 MB, audio 16 MB, documents 100 MB (fixed).',
  },
);
/** Per-instance size limits of outbound files. */
export type InstanceMediaLimits = z.infer<typeof InstanceMediaLimits>;
