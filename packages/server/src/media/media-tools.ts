import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
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
  /**
   * Set when the FFmpeg found is older than {@link MIN_FFMPEG_VERSION}: what to tell the
   * operator. It still converts; it decodes customers' files with years
   * of decoder fixes missing.
   */
  outdated?: string;
}

/**
 * The oldest FFmpeg release the gateway runs without a warning: the oldest line the distributions
 * still patch (Debian 12's 5.1; Ubuntu 24.04 ships 6.1). The bundled `@ffmpeg-installer` build is
 * 4.1 from December 2018.
 */
const MIN_FFMPEG_VERSION = '5.1';

/** Whether the gateway can convert media, and with what, or why not. */
export type MediaToolsStatus =
  | { available: true; tools: MediaTools }
  | { available: false; reason: string };

/** Where to look for the encoder: the operator's paths, then `PATH`, then the bundled package. */
export interface MediaToolsLookup {
  /** `FFMPEG_PATH`. */
  ffmpegPath: string | undefined;
  /** `FFPROBE_PATH`. */
  ffprobePath: string | undefined;
  /** The `PATH` searched (default: the process's own). */
  searchPath?: string | undefined;
}

/** What a conversion for the channels needs from the encoder. */
const REQUIRED_ENCODERS = ['libopus', 'libx264', 'aac'] as const;
const REQUIRED_MUXERS = ['caf', 'ogg', 'mp4'] as const;

/** How long each check of a candidate binary may take. */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * Finds FFmpeg and ffprobe and checks that they can do what the channels need (Opus in CAF and
 * Ogg, H.264 and AAC in MP4): `FFMPEG_PATH`/`FFPROBE_PATH` when set (no fallback: the operator
 * chose them), else `ffmpeg`/`ffprobe` on `PATH` (the distribution's, kept patched by it), else
 * the optional `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe` packages (a 2018
 * build: the last resort). An FFmpeg older than {@link MIN_FFMPEG_VERSION} is used, and marked
 * `outdated`.
 */
export async function locateMediaTools(lookup: MediaToolsLookup): Promise<MediaToolsStatus> {
  const candidates = await candidatePairs(lookup);
  const problems: string[] = [];
  for (const candidate of candidates) {
    const problem = await unusable(candidate.ffmpeg, candidate.ffprobe);
    if (problem === undefined) {
      const version = await firstLine(candidate.ffmpeg, ['-version']);
      const outdated = outdatedReason(version);
      return {
        available: true,
        tools: { ...candidate, version, ...(outdated === undefined ? {} : { outdated }) },
      };
    }
    problems.push(`${candidate.source}: ${problem}`);
  }
  return {
    available: false,
    reason:
      problems.length === 0
        ? 'no FFmpeg found (set FFMPEG_PATH and FFPROBE_PATH, put ffmpeg on PATH, or install the optional @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe packages)'
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
  const searchPath = lookup.searchPath ?? process.env.PATH ?? '';
  const ffmpeg = await onPath('ffmpeg', searchPath);
  if (ffmpeg !== undefined) {
    // ffprobe from the same PATH, preferably beside ffmpeg.
    const ffprobe = (await onPath('ffprobe', searchPath)) ?? 'ffprobe';
    candidates.push({ ffmpeg, ffprobe, source: 'PATH' });
  }
  const bundled = bundledPaths();
  if (bundled) candidates.push({ ...bundled, source: 'package' });
  return candidates;
}

/** The first executable `name` in the directories of `searchPath`, as a shell finds it. */
async function onPath(name: string, searchPath: string): Promise<string | undefined> {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, name);
    try {
      await access(path, constants.X_OK);
      return path;
    } catch {
      // Not here; the next directory.
    }
  }
  return undefined;
}

/** The year {@link MIN_FFMPEG_VERSION} was released (5.1: July 2022), to judge a git build by. */
const MIN_FFMPEG_YEAR = 2022;

/**
 * Why the FFmpeg of `versionLine` (`ffmpeg version 4.1 Copyright…`, `ffmpeg version n7.1.1-…`)
 * deserves a warning, or undefined when it is {@link MIN_FFMPEG_VERSION} or newer. A git build
 * (`ffmpeg version N-47683-g0e8eb07980-static … Copyright (c) 2000-2018`, the bundled one) has no
 * release number: it is judged by the last year of its copyright line.
 */
export function outdatedReason(versionLine: string): string | undefined {
  const advice =
    "it decodes customers' files without years of security fixes; install a current FFmpeg (apt-get install ffmpeg) or set FFMPEG_PATH";
  const version = /^ffmpeg version n?(\d+)\.(\d+)/.exec(versionLine);
  if (!version) {
    const year = Number(/Copyright \(c\) \d{4}-(\d{4})/.exec(versionLine)?.[1]);
    if (Number.isNaN(year) || year >= MIN_FFMPEG_YEAR) return undefined;
    return `this FFmpeg was built in ${year}, before ${MIN_FFMPEG_VERSION} (${MIN_FFMPEG_YEAR}): ${advice}`;
  }
  const [minMajor = 0, minMinor = 0] = MIN_FFMPEG_VERSION.split('.').map(Number);
  const major = Number(version[1]);
  const minor = Number(version[2]);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `FFmpeg ${major}.${minor} is older than ${MIN_FFMPEG_VERSION}: ${advice}`;
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
