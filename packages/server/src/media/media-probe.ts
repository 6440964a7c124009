import { z } from 'zod';

/** What ffprobe tells of a file: its container and the codec of each stream. */
export interface MediaProbe {
  /** ffprobe's `format_name` split at commas (`mov`, `mp4`, `matroska`, `webm`, `ogg`, `caf`). */
  formats: string[];
  /** The streams, in order. */
  streams: Array<{ type: string; codec: string }>;
  /** Duration in seconds, when known. */
  durationSeconds: number | undefined;
}

const ProbeOutput = z.object({
  format: z
    .object({ format_name: z.string().optional(), duration: z.string().optional() })
    .optional(),
  streams: z
    .array(z.object({ codec_type: z.string().optional(), codec_name: z.string().optional() }))
    .default([]),
});

/** The arguments that make ffprobe print a file's container and streams as JSON. */
export const PROBE_ARGS = [
  '-v',
  'error',
  '-print_format',
  'json',
  '-show_format',
  '-show_streams',
] as const;

/**
 * Reads ffprobe's JSON output.
 * @throws {Error} when it is not ffprobe's JSON.
 */
export function parseProbe(json: string): MediaProbe {
  const output = ProbeOutput.parse(JSON.parse(json));
  const duration = Number(output.format?.duration);
  return {
    formats: (output.format?.format_name ?? '').split(',').filter((name) => name !== ''),
    streams: output.streams.map((stream) => ({
      type: stream.codec_type ?? 'unknown',
      codec: stream.codec_name ?? 'unknown',
    })),
    durationSeconds: Number.isFinite(duration) ? duration : undefined,
  };
}

/** The codec of the first stream of `type`, or undefined when there is none. */
export function codecOf(probe: MediaProbe, type: 'audio' | 'video'): string | undefined {
  return probe.streams.find((stream) => stream.type === type)?.codec;
}
