import type { Detector } from 'file-type';

/** What the bytes of a file are, whatever its name or declared type said. */
export interface SniffedType {
  /** The MIME type the bytes prove, without parameters (`audio/ogg`, `video/mp4`). */
  mimeType: string;
  /** The usual extension (`opus` for Ogg Opus, `mkv`, `caf`). */
  extension: string;
}

/**
 * Apple's Core Audio Format, which `file-type` does not know: `caff`, version 1 (iPhone voice
 * memos sent over iMessage arrive as Opus or AAC in CAF).
 */
const cafDetector: Detector = {
  id: 'caf',
  async detect(tokenizer) {
    const header = new Uint8Array(6);
    const read = await tokenizer.peekBuffer(header, { mayBeLess: true });
    if (read < 6) return undefined;
    const magic = String.fromCharCode(...header.subarray(0, 4));
    return magic === 'caff' && header[4] === 0 && header[5] === 1
      ? { ext: 'caf', mime: 'audio/x-caf' }
      : undefined;
  },
};

/** `file-type`'s names for types the rest of the gateway knows by their registered name. */
const CANONICAL: Readonly<Record<string, string>> = {
  'audio/x-m4a': 'audio/mp4',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/opus': 'audio/ogg',
  'video/x-matroska': 'video/matroska',
};

/**
 * The type of a file from its first bytes (its magic numbers), with `file-type`; undefined for
 * formats without a signature (plain text, CSV, vCard), whose declared type then stands.
 */
export async function sniffMediaType(bytes: Uint8Array): Promise<SniffedType | undefined> {
  if (bytes.length === 0) return undefined;
  // Loaded on the first file, not at start: a server that never sees media keeps it out of memory.
  const { FileTypeParser } = await import('file-type');
  // A parser per call: a parser keeps its state during a detection, so calls must not share one.
  const found = await new FileTypeParser({ customDetectors: [cafDetector] }).fromBuffer(bytes);
  if (!found) return undefined;
  const bare = found.mime.split(';')[0]?.trim() ?? found.mime;
  return { mimeType: CANONICAL[bare] ?? bare, extension: found.ext };
}
