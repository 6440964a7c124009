import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateMediaTools } from './media-tools';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A program that prints `output` for any arguments (an FFmpeg built without what we need). */
function program(name: string, output: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ncat <<'LISTING'\n${output}\nLISTING\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('finding FFmpeg', () => {
  it('finds the bundled binaries when nothing is configured, and checks what they can do', async () => {
    const status = await locateMediaTools({ ffmpegPath: undefined, ffprobePath: undefined });
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
});
