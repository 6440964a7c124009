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
