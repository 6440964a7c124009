import { describe, expect, it } from 'vitest';
import { mediaSamples, recipe, testMediaTools } from '../../test/support/media-samples';
import { MediaConversionError, MediaConverter } from './media-converter';
import { MEDIA_PROFILES } from './media-profiles';

const samples = mediaSamples();

async function converter(timeoutMs = 60_000): Promise<MediaConverter> {
  return new MediaConverter(await testMediaTools(), { concurrency: 2, timeoutMs });
}

describe('the conversion pool', () => {
  it('repackages H.264 without re-encoding it: the video packets are the source’s, where a re-encode changes them', async () => {
    const pool = await converter();
    const mkv = await samples.make(
      'long.mkv',
      recipe(
        '-f lavfi -i testsrc=size=640x480:rate=30:duration=2 -f lavfi -i sine=duration=2 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest -f matroska',
      ),
    );
    const copied = await pool.convert(
      mkv,
      MEDIA_PROFILES.whatsappVideoRepackaged,
      64 * 1024 * 1024,
    );
    const encoded = await pool.convert(mkv, MEDIA_PROFILES.h264Mp4, 64 * 1024 * 1024);
    expect(await samples.codecs(copied)).toEqual(['h264', 'aac']);
    expect(await samples.codecs(encoded)).toEqual(['h264', 'aac']);
    // Compared by content, not by how long each took: a copy keeps every packet of the stream.
    const source = await samples.videoDigest(mkv);
    expect(await samples.videoDigest(copied)).toBe(source);
    expect(await samples.videoDigest(encoded)).not.toBe(source);
  });

  it('refuses a result over the byte cap, and a file it cannot read', async () => {
    const pool = await converter();
    const wav = await samples.sample('wav');
    await expect(pool.convert(wav, MEDIA_PROFILES.whatsappVoice, 100)).rejects.toThrow(
      new MediaConversionError('the converted file would be larger than the 100-byte limit'),
    );
    await expect(pool.probe(Buffer.from('not a media file at all'))).rejects.toThrow(
      MediaConversionError,
    );
    // The pool is still usable afterwards.
    const ogg = await pool.convert(wav, MEDIA_PROFILES.whatsappVoice, 1024 * 1024);
    expect(await samples.codecs(ogg)).toEqual(['opus']);
  });

  it('kills a conversion that runs past its deadline', async () => {
    const pool = await converter(200);
    const slow = await samples.make(
      'slow.mkv',
      recipe('-f lavfi -i testsrc=size=1280x720:rate=30:duration=6 -c:v mpeg4 -q:v 10 -f matroska'),
    );
    await expect(pool.convert(slow, MEDIA_PROFILES.h264Mp4, 64 * 1024 * 1024)).rejects.toThrow(
      'the conversion did not finish within 0.2 s',
    );
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
  });
});
