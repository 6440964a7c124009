import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { assertSafeUrl } from '../../egress/url-guard';

/** Redirects followed before a fetch gives up (Twilio media answers one redirect to its CDN). */
const MAX_REDIRECTS = 5;

/** The bytes of a fetched file, and the Content-Type the server gave them. */
export interface FetchedFile {
  /** The body. */
  data: Uint8Array;
  /** The response's media type (parameters stripped), when it had one. */
  contentType: string | undefined;
}

/** Why a file could not be fetched, in words fit for an attachment's `note`. */
export class AttachmentFetchError extends Error {
  override readonly name: string = 'AttachmentFetchError';
}

/** The file is larger than the fetch's byte cap (told by `Content-Length` or by the body). */
export class AttachmentTooLargeError extends AttachmentFetchError {
  override readonly name = 'AttachmentTooLargeError';

  /** The cap, in bytes. */
  readonly maxBytes: number;

  /** A file over `maxBytes`. */
  constructor(maxBytes: number) {
    super(`the file is larger than the ${maxBytes}-byte limit`);
    this.maxBytes = maxBytes;
  }
}

/** How files are fetched: the guarded dispatcher, limits and whether private hosts are allowed. */
export interface AttachmentFetcherOptions {
  /** The dispatcher that refuses non-public addresses at connect time. */
  dispatcher: Dispatcher;
  /** `WEBHOOK_ALLOW_PRIVATE_URLS`: allow http and private hosts (development and tests). */
  allowPrivate: boolean;
  /** The largest body accepted. */
  maxBytes: number;
  /** Deadline of the whole fetch, redirects and body included. */
  timeoutMs: number;
}

/**
 * Fetches the bytes of an inbound attachment that an upstream gives as a URL (BlueBubbles and
 * Twilio media, the sandbox's URL attachments), with the same address guard as webhooks: every
 * hop is checked, headers (upstream credentials) only go to the original origin, and the body is
 * bounded in size and time: the body is read as it streams and the fetch stops at the cap.
 * @throws {AttachmentFetchError} when the file cannot be had.
 */
export async function fetchAttachment(
  url: string,
  headers: Readonly<Record<string, string>>,
  options: AttachmentFetcherOptions,
): Promise<FetchedFile> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    let current = safeUrl(url, options.allowPrivate);
    const origin = current.origin;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await request(current, {
        method: 'GET',
        headers: current.origin === origin ? { ...headers } : {},
        dispatcher: options.dispatcher,
        signal: controller.signal,
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
        await response.body.dump();
        current = safeUrl(new URL(String(location), current).href, options.allowPrivate);
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump();
        throw new AttachmentFetchError(
          `the file could not be downloaded (HTTP ${response.statusCode})`,
        );
      }
      const announced = Number(response.headers['content-length']);
      if (Number.isFinite(announced) && announced > options.maxBytes) {
        // Reads nothing of it: the connection is dropped instead of the body read.
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        throw new AttachmentTooLargeError(options.maxBytes);
      }
      const data = await readBounded(response.body, options.maxBytes);
      const type = response.headers['content-type'];
      return {
        data,
        contentType: typeof type === 'string' ? type.split(';')[0]?.trim() || undefined : undefined,
      };
    }
    throw new AttachmentFetchError('the file could not be downloaded (too many redirects)');
  } catch (error) {
    if (error instanceof AttachmentFetchError) throw error;
    throw new AttachmentFetchError(
      controller.signal.aborted
        ? 'the file could not be downloaded in time'
        : `the file could not be downloaded (${error instanceof Error ? error.message : 'network error'})`,
    );
  } finally {
    clearTimeout(timer);
  }
}

function safeUrl(url: string, allowPrivate: boolean): URL {
  try {
    return assertSafeUrl(url, { allowPrivate });
  } catch (error) {
    throw new AttachmentFetchError(
      `the file URL was refused (${error instanceof Error ? error.message : 'unsafe URL'})`,
    );
  }
}

async function readBounded(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new AttachmentTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
