import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { type MediaProbe, PROBE_ARGS, parseProbe } from '../../src/media/media-probe';
import { locateMediaTools, type MediaTools } from '../../src/media/media-tools';

const run = promisify(execFile);

/** The FFmpeg the tests generate and check samples with: the one the server finds by default. */
export async function testMediaTools(): Promise<MediaTools> {
  const status = await locateMediaTools({ ffmpegPath: undefined, ffprobePath: undefined });
  if (!status.available) throw new Error(`the tests need FFmpeg: ${status.reason}`);
  return status.tools;
}

/**
 * The sample files the media tests use, made by FFmpeg itself at the start of a test file (a
 * sine tone, a test-pattern video), so no binary fixture lives in the repository. Each entry is
 * an FFmpeg input and output recipe; the result is read into memory.
 */
const TONE = '-f lavfi -i sine=frequency=440:duration=3';
const PATTERN = '-f lavfi -i testsrc=size=160x120:rate=15:duration=2 -f lavfi -i sine=duration=2';
const X264 = '-c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest';

const RECIPES = {
  /** 3 s of 440 Hz as 16-bit PCM WAV, mono 48 kHz. */
  wav: recipe(`${TONE} -ac 1 -ar 48000 -f wav`),
  /** The tone as AAC in M4A. */
  m4a: recipe(`${TONE} -c:a aac -f ipod`),
  /** The tone as MP3. */
  mp3: recipe(`${TONE} -c:a libmp3lame -f mp3`),
  /** The tone as Opus in Ogg (a WhatsApp voice note as it is). */
  oggOpus: recipe(`${TONE} -c:a libopus -f ogg`),
  /** The tone as Opus in CAF (an iMessage voice memo as it is). */
  cafOpus: recipe(`${TONE} -c:a libopus -f caf`),
  /** The tone as Apple Lossless in CAF (CAF, but not Opus). */
  cafAlac: recipe(`${TONE} -c:a alac -f caf`),
  /** 2 s of test pattern, VP9 and Opus in WebM. */
  webmVp9: recipe(
    `${PATTERN} -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -c:a libopus -shortest -f webm`,
  ),
  /** 2 s of test pattern, H.264 and AAC in Matroska (repackaged for WhatsApp, not re-encoded). */
  mkvH264: recipe(`${PATTERN} ${X264} -f matroska`),
  /** 2 s of test pattern, H.264 and AAC in MP4 (WhatsApp takes it as it is). */
  mp4H264: recipe(`${PATTERN} ${X264} -movflags +faststart -f mp4`),
  /** 2 s of test pattern, H.264 and AAC in QuickTime (what an iPhone records). */
  movH264: recipe(`${PATTERN} ${X264} -f mov`),
} as const satisfies Record<string, readonly string[]>;

/** FFmpeg options written as one line (no option here contains a space). */
export function recipe(line: string): readonly string[] {
  return line.split(' ');
}

/** The name of a sample. */
export type SampleName = keyof typeof RECIPES;

/** Makes samples with FFmpeg (`extra` recipes too) and probes files, in a temporary directory. */
export interface MediaSamples {
  /** The bytes of a sample (made on first use). */
  sample(name: SampleName): Promise<Buffer>;
  /** The bytes FFmpeg writes for `recipe` (input and output options). */
  make(name: string, recipe: readonly string[]): Promise<Buffer>;
  /** ffprobe's view of some bytes. */
  probe(data: Uint8Array): Promise<MediaProbe>;
  /** The codecs of each stream of some bytes, in order. */
  codecs(data: Uint8Array): Promise<string[]>;
  /**
   * An MD5 of the packets of the first video stream of some bytes (FFmpeg's `md5` muxer over a
   * stream copy): the same for a stream copied into another container, not for a re-encode.
   */
  videoDigest(data: Uint8Array): Promise<string>;
}

/** Samples for one test file; the directory goes when the file's tests are done. */
export function mediaSamples(): MediaSamples {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-samples-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tools = testMediaTools();
  const made = new Map<string, Promise<Buffer>>();
  let probes = 0;
  const make = (name: string, recipe: readonly string[]): Promise<Buffer> => {
    let file = made.get(name);
    if (!file) {
      file = (async () => {
        const output = join(dir, name);
        await run((await tools).ffmpeg, [
          '-hide_banner',
          '-loglevel',
          'error',
          '-y',
          ...recipe,
          output,
        ]);
        return readFileSync(output);
      })();
      made.set(name, file);
    }
    return file;
  };
  const writeInput = (data: Uint8Array): string => {
    probes += 1;
    const input = join(dir, `probe-${probes}`);
    writeFileSync(input, data);
    return input;
  };
  const probe = async (data: Uint8Array): Promise<MediaProbe> => {
    const input = writeInput(data);
    const { stdout } = await run((await tools).ffprobe, [...PROBE_ARGS, input]);
    return parseProbe(stdout);
  };
  return {
    sample: (name) => make(name, RECIPES[name]),
    make,
    probe,
    codecs: async (data) => (await probe(data)).streams.map((stream) => stream.codec),
    videoDigest: async (data) => {
      const input = writeInput(data);
      const args = ['-hide_banner', '-loglevel', 'error', '-i', input, '-map', '0:v:0'];
      const { stdout } = await run((await tools).ffmpeg, [...args, '-c', 'copy', '-f', 'md5', '-']);
      return stdout.trim();
    },
  };
}
