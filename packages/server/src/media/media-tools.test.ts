import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateMediaTools, outdatedReason } from './media-tools';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-tools-'));
const emptyDir = mkdtempSync(join(tmpdir(), 'switchboard-no-tools-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

/**
 * A directory holding an `ffmpeg` and an `ffprobe` that print `version` and list every encoder and
 * muxer the channels need (a complete FFmpeg, as far as the lookup can tell).
 */
function toolsDir(version: string): string {
  const bin = mkdtempSync(join(dir, 'bin-'));
  const script = [
    '#!/bin/sh',
    'case "$*" in',
    `  *-encoders*) printf ' A..... libopus Opus\\n V..... libx264 H.264\\n A..... aac AAC\\n' ;;`,
    `  *-muxers*) printf ' E caf CAF\\n E ogg Ogg\\n E mp4 MP4\\n' ;;`,
    `  *) echo '${version}' ;;`,
    'esac',
    '',
  ].join('\n');
  for (const name of ['ffmpeg', 'ffprobe']) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** A program that prints `output` for any arguments (an FFmpeg built without what we need). */
function program(name: string, output: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ncat <<'LISTING'\n${output}\nLISTING\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('finding FFmpeg', () => {
  it('finds the bundled binaries when nothing is configured and PATH has none, and checks what they can do', async () => {
    const status = await locateMediaTools({
      ffmpegPath: undefined,
      ffprobePath: undefined,
      searchPath: emptyDir,
    });
    if (!status.available) throw new Error(status.reason);
    expect(status.tools.source).toBe('package');
    expect(status.tools.version).toMatch(/^ffmpeg version/);
  });

  it('uses FFMPEG_PATH without falling back, and says why it cannot', async () => {
    const status = await locateMediaTools({
      ffmpegPath: '/nonexistent/ffmpeg',
      ffprobePath: undefined,
    });
    expect(status).toEqual({
      available: false,
      reason: 'FFMPEG_PATH: /nonexistent/ffmpeg is missing or not executable',
    });
  });

  it('refuses an FFmpeg without the encoders and muxers the channels need', async () => {
    const ffmpeg = program(
      'ffmpeg-minimal',
      [
        'Encoders:',
        ' ------',
        ' A..... aac                  AAC (Advanced Audio Coding)',
        ' E mp4             MP4 (MPEG-4 Part 14)',
      ].join('\n'),
    );
    const ffprobe = program('ffprobe-minimal', 'ffprobe version test');
    const status = await locateMediaTools({ ffmpegPath: ffmpeg, ffprobePath: ffprobe });
    expect(status).toEqual({
      available: false,
      reason: `FFMPEG_PATH: ${ffmpeg} lacks encoder libopus, encoder libx264, muxer caf, muxer ogg`,
    });
  });

  it("looks in FFMPEG_PATH, then PATH (the distribution's), then the bundled build", async () => {
    const distribution = toolsDir('ffmpeg version 6.1.1-3ubuntu5 Copyright (c) 2000-2023');
    const chosen = toolsDir('ffmpeg version 7.1.1 Copyright (c) 2000-2025');
    const searchPath = [emptyDir, distribution].join(delimiter);

    const fromPath = await locateMediaTools({
      ffmpegPath: undefined,
      ffprobePath: undefined,
      searchPath,
    });
    expect(fromPath).toEqual({
      available: true,
      tools: {
        ffmpeg: join(distribution, 'ffmpeg'),
        ffprobe: join(distribution, 'ffprobe'),
        source: 'PATH',
        version: 'ffmpeg version 6.1.1-3ubuntu5 Copyright (c) 2000-2023',
      },
    });

    const fromSetting = await locateMediaTools({
      ffmpegPath: join(chosen, 'ffmpeg'),
      ffprobePath: undefined,
      searchPath,
    });
    expect(fromSetting.available && fromSetting.tools).toMatchObject({
      ffmpeg: join(chosen, 'ffmpeg'),
      ffprobe: join(chosen, 'ffprobe'),
      source: 'FFMPEG_PATH',
    });

    // PATH's FFmpeg cannot do what the channels need: the bundled build is the last resort.
    const lacking = mkdtempSync(join(dir, 'lacking-'));
    writeFileSync(join(lacking, 'ffmpeg'), '#!/bin/sh\necho nothing\n');
    chmodSync(join(lacking, 'ffmpeg'), 0o755);
    const fallback = await locateMediaTools({
      ffmpegPath: undefined,
      ffprobePath: undefined,
      searchPath: lacking,
    });
    expect(fallback.available && fallback.tools.source).toBe('package');
  });

  it('marks an FFmpeg older than the documented minimum as outdated, and still uses it', async () => {
    const old = toolsDir('ffmpeg version 4.1 Copyright (c) 2000-2018 the FFmpeg developers');
    const status = await locateMediaTools({
      ffmpegPath: undefined,
      ffprobePath: undefined,
      searchPath: old,
    });
    expect(status.available && status.tools.outdated).toMatch(/^FFmpeg 4\.1 is older than 5\.1/);
    expect(outdatedReason('ffmpeg version 5.0.3 Copyright')).toMatch(/older than 5\.1/);
    expect(outdatedReason('ffmpeg version 5.1.6-0+deb12u1 Copyright')).toBeUndefined();
    expect(
      outdatedReason('ffmpeg version n7.1.1-static https://johnvansickle.com'),
    ).toBeUndefined();
    // A git build, as the bundled one is, by the year of its copyright line.
    expect(
      outdatedReason('ffmpeg version N-47683-g0e8eb07980-static  Copyright (c) 2000-2018'),
    ).toMatch(/built in 2018, before 5\.1/);
    expect(
      outdatedReason('ffmpeg version N-118421-g2f2bd3c Copyright (c) 2000-2025'),
    ).toBeUndefined();
  });
});
