/** MIME types by file extension, for the formats messaging channels carry (sent and received). */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  caf: 'audio/x-caf',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  amr: 'audio/amr',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  '3gp': 'video/3gpp',
  txt: 'text/plain',
  csv: 'text/csv',
  vcf: 'text/vcard',
  ics: 'text/calendar',
  json: 'application/json',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The fallback when neither the name nor the bytes tell. */
export const OCTET_STREAM = 'application/octet-stream';

/**
 * The MIME type a file name's extension implies, or undefined.
 * @example mimeTypeFromName('IMG_0412.JPG') // 'image/jpeg'
 */
export function mimeTypeFromName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/** The MIME type the last path segment of a URL implies, or undefined. */
export function mimeTypeFromUrl(url: string): string | undefined {
  try {
    return mimeTypeFromName(new URL(url).pathname.split('/').pop());
  } catch {
    return undefined;
  }
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** The ISO media (MP4 family) type from the `ftyp` brand. */
function isoMediaType(brand: string): string {
  if (brand === 'qt  ') return 'video/quicktime';
  if (brand === 'M4A ' || brand === 'M4B ') return 'audio/mp4';
  if (brand === 'M4V ') return 'video/x-m4v';
  if (brand.startsWith('3gp')) return 'video/3gpp';
  if (brand === 'heic' || brand === 'heix' || brand === 'mif1') return 'image/heic';
  return 'video/mp4';
}

/** The MIME type the first bytes of a file announce (its magic number), or undefined. */
export function mimeTypeFromBytes(bytes: Uint8Array): string | undefined {
  if (bytes.length >= 8 && ascii(bytes, 1, 3) === 'PNG' && bytes[0] === 0x89) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'image/jpeg';
  }
  if (ascii(bytes, 0, 4) === 'GIF8') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'audio/wav';
  if (ascii(bytes, 0, 4) === '%PDF') return 'application/pdf';
  if (ascii(bytes, 0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(bytes, 0, 4) === 'caff') return 'audio/x-caf';
  if (ascii(bytes, 0, 3) === 'ID3') return 'audio/mpeg';
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) {
    return 'audio/mpeg';
  }
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') return isoMediaType(ascii(bytes, 8, 4));
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'PK\u0003\u0004') return 'application/zip';
  return undefined;
}
