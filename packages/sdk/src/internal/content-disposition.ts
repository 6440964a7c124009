/**
 * The file name a `Content-Disposition` header carries: the RFC 5987 `filename*` (UTF-8) form
 * when present, since it survives non-ASCII names, else the quoted or bare `filename`; null when
 * the header names no file.
 */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (header === null) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  const encoded = extended?.[2]?.trim();
  if (encoded !== undefined && (extended?.[1] ?? '').toLowerCase() === 'utf-8') {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed percent-encoding: fall back to the plain parameter below.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  if (plain === null) return null;
  const quoted = plain[1];
  if (quoted !== undefined) return quoted.replace(/\\(.)/g, '$1');
  return plain[2] ?? null;
}
