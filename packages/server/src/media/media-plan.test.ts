import type { Channel } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { decideBrowserRendition, decideMedia, type MediaDecision } from './media-plan';
import type { MediaProbe } from './media-probe';

function probeOf(formats: string, ...streams: Array<[string, string]>): MediaProbe {
  return {
    formats: formats.split(','),
    streams: streams.map(([type, codec]) => ({ type, codec })),
    durationSeconds: 2,
  };
}

function outcome(decision: MediaDecision): string {
  return decision.kind === 'convert' ? decision.profile.name : decision.kind;
}

const H264_AAC = probeOf('matroska,webm', ['video', 'h264'], ['audio', 'aac']);

describe('what a file needs before a channel takes it (send rules 7 and 8)', () => {
  const cases: Array<
    [string, Channel, string, string | undefined, boolean, MediaProbe | undefined, string]
  > = [
    ['MP3 voice memo on imessage', 'imessage', 'audio/mpeg', 'mp3', true, undefined, 'as-is'],
    [
      'CAF voice memo on imessage before a probe',
      'imessage',
      'audio/x-caf',
      'caf',
      true,
      undefined,
      'probe',
    ],
    [
      'Opus-in-CAF on imessage',
      'imessage',
      'audio/x-caf',
      'caf',
      true,
      probeOf('caf', ['audio', 'opus']),
      'as-is',
    ],
    [
      'AAC-in-CAF on imessage',
      'imessage',
      'audio/x-caf',
      'caf',
      true,
      probeOf('caf', ['audio', 'aac']),
      'imessage-voice-opus-caf-v1',
    ],
    [
      'WAV voice memo on imessage',
      'imessage',
      'audio/wav',
      'wav',
      true,
      undefined,
      'imessage-voice-opus-caf-v1',
    ],
    ['Ogg Opus voice note on whatsapp', 'whatsapp', 'audio/ogg', 'opus', true, undefined, 'as-is'],
    [
      'Ogg Vorbis voice note on whatsapp',
      'whatsapp',
      'audio/ogg',
      'ogg',
      true,
      undefined,
      'whatsapp-voice-opus-ogg-v1',
    ],
    [
      'M4A voice note on whatsapp',
      'whatsapp',
      'audio/mp4',
      'm4a',
      true,
      undefined,
      'whatsapp-voice-opus-ogg-v1',
    ],
    ['voice memo on sms (a plain file)', 'sms', 'audio/wav', 'wav', true, undefined, 'as-is'],
    [
      'audio without the flag on whatsapp',
      'whatsapp',
      'audio/wav',
      'wav',
      false,
      undefined,
      'as-is',
    ],
    ['MOV on imessage', 'imessage', 'video/quicktime', 'mov', false, undefined, 'as-is'],
    [
      'WebM on imessage (no transcoding there)',
      'imessage',
      'video/webm',
      'webm',
      false,
      undefined,
      'as-is',
    ],
    ['video on whatsapp before a probe', 'whatsapp', 'video/mp4', 'mp4', false, undefined, 'probe'],
    [
      'H.264/AAC MP4 on whatsapp',
      'whatsapp',
      'video/mp4',
      'mp4',
      false,
      probeOf('mov,mp4', ['video', 'h264'], ['audio', 'aac']),
      'as-is',
    ],
    [
      'H.264 MP4 without sound on whatsapp',
      'whatsapp',
      'video/mp4',
      'mp4',
      false,
      probeOf('mov,mp4', ['video', 'h264']),
      'as-is',
    ],
    [
      'H.264/AAC MKV on whatsapp',
      'whatsapp',
      'video/matroska',
      'mkv',
      false,
      H264_AAC,
      'whatsapp-video-remux-v1',
    ],
    [
      'H.264 with Opus on whatsapp',
      'whatsapp',
      'video/webm',
      'webm',
      false,
      probeOf('webm', ['video', 'h264'], ['audio', 'opus']),
      'whatsapp-video-copy-h264-aac-v1',
    ],
    [
      'HEVC MOV on whatsapp',
      'whatsapp',
      'video/quicktime',
      'mov',
      false,
      probeOf('mov', ['video', 'hevc'], ['audio', 'aac']),
      'video-h264-aac-mp4-v1',
    ],
    ['video on sms', 'sms', 'video/webm', 'webm', false, undefined, 'as-is'],
    ['image on whatsapp', 'whatsapp', 'image/png', 'png', false, undefined, 'as-is'],
    ['PDF on imessage', 'imessage', 'application/pdf', 'pdf', false, undefined, 'as-is'],
  ];
  it.each(cases)('%s', (_name, channel, mimeType, extension, isAudioMessage, probe, expected) => {
    expect(outcome(decideMedia(channel, { mimeType, extension, isAudioMessage }, probe))).toBe(
      expected,
    );
  });
});

describe('browser-playable copies of inbound media', () => {
  it.each([
    ['audio/x-caf', undefined, 'audio-aac-m4a-v1'],
    ['audio/ogg', undefined, 'audio-aac-m4a-v1'],
    ['audio/amr', undefined, 'audio-aac-m4a-v1'],
    ['audio/mpeg', undefined, 'as-is'],
    ['audio/mp4', undefined, 'as-is'],
    ['video/quicktime', undefined, 'probe'],
    [
      'video/quicktime',
      probeOf('mov', ['video', 'h264'], ['audio', 'aac']),
      'whatsapp-video-remux-v1',
    ],
    [
      'video/quicktime',
      probeOf('mov', ['video', 'hevc'], ['audio', 'aac']),
      'video-h264-aac-mp4-v1',
    ],
    ['image/heic', undefined, 'as-is'],
  ] as const)('%s (%#)', (mimeType, probe, expected) => {
    expect(outcome(decideBrowserRendition(mimeType, probe))).toBe(expected);
  });
});
