import { describe, expect, it } from 'vitest';
import { sniffMediaType } from './media-type';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.7 a document');
/** The start of a CAF file: `caff`, version 1, then the description chunk. */
const CAF = Buffer.concat([Buffer.from('caff'), Buffer.from([0, 1, 0, 0]), Buffer.from('desc')]);
const WAV = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from('WAVEfmt '),
  Buffer.alloc(24),
]);

describe('the type of a file from its bytes', () => {
  it('names the formats messaging carries, CAF included, and nothing for plain text', async () => {
    expect(await sniffMediaType(PNG)).toEqual({ mimeType: 'image/png', extension: 'png' });
    expect(await sniffMediaType(PDF)).toEqual({ mimeType: 'application/pdf', extension: 'pdf' });
    expect(await sniffMediaType(CAF)).toEqual({ mimeType: 'audio/x-caf', extension: 'caf' });
    expect(await sniffMediaType(WAV)).toEqual({ mimeType: 'audio/wav', extension: 'wav' });
    expect(await sniffMediaType(Buffer.from('Order 1842 shipped, thanks!'))).toBeUndefined();
    expect(await sniffMediaType(new Uint8Array())).toBeUndefined();
  });

  it('keeps concurrent detections apart', async () => {
    const inputs = [PNG, PDF, CAF, WAV, PNG, PDF, CAF, WAV];
    const types = await Promise.all(inputs.map((bytes) => sniffMediaType(bytes)));
    expect(types.map((type) => type?.extension)).toEqual([
      'png',
      'pdf',
      'caf',
      'wav',
      'png',
      'pdf',
      'caf',
      'wav',
    ]);
  });
});
