import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The FFmpeg programs the gateway runs as separate processes (never linked). */
export interface MediaTools {
  /** Path of `ffmpeg`. */
  ffmpeg: string;
  /** Path of `ffprobe`. */
  ffprobe: string;
  /** The first line of `ffmpeg -version`. */
  version: string;
  /** Where the binaries came from. */
  source: 'FFMPEG_PATH' | 'package' | 'PATH';
}

/** Whether the gateway can convert media, and with what, or why not. */
export type MediaToolsStatus =
  | { available: true; tools: MediaTools }
  | { available: false; reason: string };

/** Where to look for the encoder: the operator's paths win over the bundled package and `PATH`. */
export interface MediaToolsLookup {
  /** `FFMPEG_PATH`. */
  ffmpegPath: string | undefined;
  /** `FFPROBE_PATH`. */
  ffprobePath: string | undefined;
}

/** What a conversion for the channels needs from the encoder. */
const REQUIRED_ENCODERS = ['libopus', 'libx264', 'aac'] as const;
const REQUIRED_MUXERS = ['caf', 'ogg', 'mp4'] as const;

/** How long each check of a candidate binary may take. */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * Finds FFmpeg and ffprobe and checks that they can do what the channels need (Opus in CAF and
 * Ogg, H.264 and AAC in MP4): `FFMPEG_PATH`/`FFPROBE_PATH` when set (no fallback: the operator
 * chose them), else the optional `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe`
 * packages, else `ffmpeg`/`ffprobe` on `PATH`.
 */
export async function locateMediaTools(lookup: MediaToolsLookup): Promise<MediaToolsStatus> {
  const candidates = await candidatePairs(lookup);
  const problems: string[] = [];
  for (const candidate of candidates) {
    const problem = await unusable(candidate.ffmpeg, candidate.ffprobe);
    if (problem === undefined) {
      const version = await firstLine(candidate.ffmpeg, ['-version']);
      return { available: true, tools: { ...candidate, version } };
    }
    problems.push(`${candidate.source}: ${problem}`);
  }
  return {
    available: false,
    reason:
      problems.length === 0
        ? 'no FFmpeg found (set FFMPEG_PATH and FFPROBE_PATH, install the optional @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe packages, or put ffmpeg on PATH)'
        : problems.join('; '),
  };
}

type Candidate = Omit<MediaTools, 'version'>;

async function candidatePairs(lookup: MediaToolsLookup): Promise<Candidate[]> {
  if (lookup.ffmpegPath !== undefined || lookup.ffprobePath !== undefined) {
    const ffmpeg = lookup.ffmpegPath ?? 'ffmpeg';
    // An ffprobe beside the chosen ffmpeg, as distributions and static builds ship them.
    const ffprobe =
      lookup.ffprobePath ??
      (ffmpeg.includes('/') ? ffmpeg.replace(/ffmpeg([^/]*)$/, 'ffprobe$1') : 'ffprobe');
    return [{ ffmpeg, ffprobe, source: 'FFMPEG_PATH' }];
  }
  const candidates: Candidate[] = [];
  const bundled = bundledPaths();
  if (bundled) candidates.push({ ...bundled, source: 'package' });
  candidates.push({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', source: 'PATH' });
  return candidates;
}

/** The binaries of the optional installer packages, when they are installed for this platform. */
function bundledPaths(): { ffmpeg: string; ffprobe: string } | undefined {
  const require = createRequire(import.meta.url);
  try {
    const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
    return { ffmpeg, ffprobe };
  } catch {
    return undefined;
  }
}

/** Why this pair cannot convert media for the channels, or undefined when it can. */
async function unusable(ffmpeg: string, ffprobe: string): Promise<string | undefined> {
  for (const binary of [ffmpeg, ffprobe]) {
    if (binary.includes('/')) {
      try {
        await access(binary, constants.X_OK);
      } catch {
        return `${binary} is missing or not executable`;
      }
    }
  }
  try {
    await run(ffprobe, ['-version'], { timeout: CHECK_TIMEOUT_MS });
  } catch (error) {
    return `${ffprobe} does not run (${errorText(error)})`;
  }
  let encoders: string;
  let muxers: string;
  try {
    encoders = (await run(ffmpeg, ['-hide_banner', '-encoders'], { timeout: CHECK_TIMEOUT_MS }))
      .stdout;
    muxers = (await run(ffmpeg, ['-hide_banner', '-muxers'], { timeout: CHECK_TIMEOUT_MS })).stdout;
  } catch (error) {
    return `${ffmpeg} does not run (${errorText(error)})`;
  }
  const missing = [
    ...REQUIRED_ENCODERS.filter((name) => !listed(encoders, name)).map((name) => `encoder ${name}`),
    ...REQUIRED_MUXERS.filter((name) => !listed(muxers, name)).map((name) => `muxer ${name}`),
  ];
  return missing.length === 0 ? undefined : `${ffmpeg} lacks ${missing.join(', ')}`;
}

/** True when `name` is an entry (second column) of an `ffmpeg -encoders`/`-muxers` listing. */
function listed(listing: string, name: string): boolean {
  return listing.split('\n').some((line) => line.trim().split(/\s+/)[1] === name);
}

async function firstLine(binary: string, args: string[]): Promise<string> {
  const { stdout } = await run(binary, args, { timeout: CHECK_TIMEOUT_MS });
  return stdout.split('\n')[0]?.trim() ?? '';
}

function errorText(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && error.code === 'ENOENT') {
    return 'not found';
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? 'error') : String(error);
}
