import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** A static asset as its source answers it. */
export interface StaticAsset {
  /** HTTP status. */
  status: number;
  /** `Content-Type`. */
  contentType: string;
  /** The bytes. */
  body: Buffer;
}

/** An asset ready to serve: its validator and its compressed copies, made once. */
interface PreparedAsset extends StaticAsset {
  etag: string;
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
}

/** How long a browser may use an asset before it asks again (with `If-None-Match`). */
const MAX_AGE_SECONDS = 3600;
/** Bodies smaller than this are sent as they are: compressing them saves nothing worth it. */
const MIN_COMPRESSED_BYTES = 1024;

/** The encoding to answer with for `Accept-Encoding`: brotli first, then gzip, else none. */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/**
 * Serves static assets (the API reference's ~5 MB script) compressed and cacheable: each asset's
 * brotli and gzip copies are made once, on first demand, and kept; every answer carries a strong
 * `ETag` (a hash of the bytes) and `Cache-Control`, and a matching `If-None-Match` gets 304.
 */
export class CompressedAssets {
  readonly #load: (url: string) => Promise<StaticAsset>;
  readonly #cacheControl: (url: string) => string;
  readonly #prepared = new Map<string, Promise<PreparedAsset>>();

  /**
   * Assets read through `load` (called once per URL that answers 200); `cacheControl` names each
   * URL's `Cache-Control` (default: an hour).
   */
  constructor(
    load: (url: string) => Promise<StaticAsset>,
    options: { cacheControl?: (url: string) => string } = {},
  ) {
    this.#load = load;
    this.#cacheControl = options.cacheControl ?? (() => `public, max-age=${MAX_AGE_SECONDS}`);
  }

  /** Answers `request` with the asset at `url`. */
  async send(url: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const asset = await this.#asset(url);
    if (asset.status !== 200) {
      return reply.code(asset.status).type(asset.contentType).send(asset.body);
    }
    reply
      .header('etag', asset.etag)
      .header('cache-control', this.#cacheControl(url))
      .header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    const encoding =
      asset.body.length >= MIN_COMPRESSED_BYTES
        ? chooseEncoding(request.headers['accept-encoding'])
        : undefined;
    reply.code(200).type(asset.contentType);
    if (encoding === undefined) return reply.send(asset.body);
    asset.encoded[encoding] ??=
      encoding === 'br'
        ? brotli(asset.body, {
            params: {
              // Quality 9 of 11: within a few % of the best for a fraction of its time.
              [constants.BROTLI_PARAM_QUALITY]: 9,
              [constants.BROTLI_PARAM_SIZE_HINT]: asset.body.length,
            },
          })
        : gzipped(asset.body, { level: 9 });
    return reply.header('content-encoding', encoding).send(await asset.encoded[encoding]);
  }

  async #asset(url: string): Promise<PreparedAsset> {
    const known = this.#prepared.get(url);
    if (known) return known;
    const loaded = await this.#load(url);
    const prepared: PreparedAsset = {
      ...loaded,
      etag: `"${createHash('sha256').update(loaded.body).digest('base64url').slice(0, 27)}"`,
      encoded: {},
    };
    // Only what exists is kept: a 404 must not fill the map with every URL asked for.
    if (loaded.status === 200) this.#prepared.set(url, Promise.resolve(prepared));
    return prepared;
  }
}
