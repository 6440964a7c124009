/** MIME types of the file extensions inbound attachments commonly have. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  m4v: 'video/x-m4v',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  caf: 'audio/x-caf',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  vcf: 'text/vcard',
  zip: 'application/zip',
  json: 'application/json',
};

/** The type of last resort: bytes of unknown kind. */
export const OCTET_STREAM = 'application/octet-stream';

/**
 * The MIME type of a file name's extension, or undefined when it has none we know.
 * @example mimeTypeOfFilename('IMG_0412.JPG') // 'image/jpeg'
 */
export function mimeTypeOfFilename(filename: string | undefined): string | undefined {
  if (filename === undefined) return undefined;
  const dot = filename.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION[filename.slice(dot + 1).toLowerCase()];
}
